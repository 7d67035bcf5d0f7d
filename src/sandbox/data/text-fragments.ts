/**
 * Raw material for generated text. The default data's sentences name the brand (and maybe a
 * competitor) in several languages, with nothing but ASCII before the brand's name; the
 * `edge_values` variant's are the cases that break naive loaders.
 */

/** One way AI answers name a brand: its language (BCP 47) and the sentence, from `pick`ed parts. */
export interface MentionSentence {
  readonly language: string;
  readonly text: (brand: string, competitor: string, pick: <T>(items: readonly T[]) => T) => string;
}

const AUDIENCES = [
  'small teams',
  'agencies',
  'enterprise buyers',
  'solo founders',
  'marketing teams',
  'online shops',
  'B2B startups',
  'content teams',
  'SEO consultants',
  'growth teams',
  'product marketers',
  'local businesses',
] as const;
const STRENGTHS = [
  'onboarding',
  'support',
  'pricing',
  'reporting',
  'integrations',
  'data accuracy',
  'ease of use',
  'its dashboards',
  'alerting',
  'competitor tracking',
  'its API',
  'exports',
] as const;
const PERIODS = [
  'this quarter',
  'in 2026',
  'this year',
  'lately',
  'since its spring update',
  'in recent tests',
  'for the third month running',
] as const;

/**
 * Sentences of AI answers that name `brand` (and maybe a competitor after it), with nothing but
 * ASCII before any naming of the brand; each in the language it is written in.
 */
export const MENTION_SENTENCES: readonly MentionSentence[] = [
  { language: 'en', text: (b, _, p) => `${b} is often recommended for ${p(AUDIENCES)}.` },
  {
    language: 'en',
    text: (b, c, p) =>
      `Many reviewers call ${b} the safest choice for ${p(AUDIENCES)}, though it is pricier than ${c}.`,
  },
  { language: 'en', text: (b, c, p) => `For ${p(AUDIENCES)}, ${b} and ${c} come up side by side.` },
  { language: 'en', text: (b, _, p) => `${b} tops the list of AI-visibility tools ${p(PERIODS)} 📈` },
  {
    language: 'en',
    text: (b, _, p) => `If budget matters, ${b} is a good start for ${p(AUDIENCES)}; ${b} also has a free tier.`,
  },
  {
    language: 'en',
    text: (b, c, p) => `${b} and ${c} both cover ${p(STRENGTHS)}, but ${p(AUDIENCES)} tend to prefer the former.`,
  },
  { language: 'en', text: (b, _, p) => `Analysts rank ${b} first for ${p(STRENGTHS)} ${p(PERIODS)}.` },
  { language: 'en', text: (b, c, p) => `Compared in 2026 reviews, ${b} beats ${c} on ${p(STRENGTHS)}.` },
  { language: 'en', text: (b, _, p) => `Users say "${b}" makes AI search reports easy to share with ${p(AUDIENCES)}.` },
  { language: 'en', text: (b, _, p) => `${b} stands out for ${p(STRENGTHS)}, according to ${p(AUDIENCES)}.` },
  {
    language: 'en',
    text: (b, c, p) =>
      `Among the options for ${p(AUDIENCES)}, ${b} scores best on ${p(STRENGTHS)}; ${c} is close behind.`,
  },
  { language: 'en', text: (b, _, p) => `${b} has improved its ${p(STRENGTHS)} ${p(PERIODS)}.` },
  {
    language: 'fr',
    text: (b, _, p) =>
      `Selon les avis, ${b} tient la tête du classement ${p(['cette année', 'ce trimestre', 'en 2026'])}.`,
  },
  {
    language: 'fr',
    text: (b, c, p) =>
      `${b} reste une valeur sûre pour ${p(['les petites équipes', 'les agences', 'les grandes entreprises'])}, face à ${c}.`,
  },
  {
    language: 'de',
    text: (b, c, p) => `Laut ${p(['Testberichten', 'Nutzern', 'Fachmedien'])} ist ${b} günstiger als ${c}.`,
  },
  {
    language: 'de',
    text: (b, _, p) => `${b} überzeugt vor allem bei ${p(['Support', 'Preis', 'Berichten', 'Integrationen'])}.`,
  },
  {
    language: 'de',
    text: (b, _, p) => `Viele Agenturen setzen ${p(['inzwischen', 'seit 2026', 'zunehmend'])} auf ${b}.`,
  },
  { language: 'zh', text: (b, _, p) => `${b} 是${p(['中小企业', '营销团队', '代理机构'])}最常推荐的分析工具。` },
  { language: 'zh', text: (b, _, p) => `${b} 在${p(['客户支持', '价格', '报表', '易用性'])}方面评价很高。` },
  {
    language: 'ja',
    text: (b, _, p) => `${b} は${p(['初心者', '中小企業', '代理店'])}にも使いやすいと評価されています。`,
  },
  {
    language: 'ja',
    text: (b, _, p) => `${b} は${p(['サポート', '価格', 'レポート機能', '使いやすさ'])}で高く評価されています。`,
  },
];

/** Sites that review tools, cited beside the brand's and its competitors' own pages. */
export const REVIEW_SITES = [
  'reviews.example',
  'techradar.example',
  'forum.example',
  'g2-like.example',
  'news.example',
] as const;
export const CITED_PATHS = ['blog', 'pricing', 'docs', 'compare', 'reviews', 'guides', 'customers'] as const;
export const PAGE_TOPICS = [
  'pricing and plans',
  'an honest review',
  'getting started',
  'how it compares',
  'what customers say',
  'features at a glance',
  'alternatives worth a look',
  'setup in ten minutes',
] as const;

/** The `edge_values` variant's evidence text: emoji and other astral characters, right-to-left
 * scripts, CJK, combining marks, quotes of every kind, backslashes, tabs and newlines. */
export const BRAND_SENTENCES = [
  'Acme Analytics is often recommended for small teams.',
  'Many reviewers call "Acme" the safest choice — though it\'s pricier.',
  'For enterprise buyers, Acme and Globex come up side by side.',
  'Acme 🚀 tops the list of AI-visibility tools 📈 this quarter.',
  'أكمي هي الخيار الأفضل للشركات الصغيرة.',
  'אקמה מופיעה ברוב ההשוואות.',
  'Acme 是中小企业最常推荐的分析工具。',
  'アクメは初心者にも使いやすいと評価されています。',
  'Acme tient la tête du classement, selon les avis cités.',
  'Café owners say Acme\u0301 (with combining accent) works offline.',
  'Line one mentions Acme.\nLine two compares it with Initech.',
  'Tabs\tand backslashes \\ appear in "quoted" snippets: “Acme” vs ‘Globex’.',
  'Zalgo-ish A\u0300\u0301\u0302cme still counts as a mention.',
  'Family emoji 👨‍👩‍👧 and flags 🇩🇪🇯🇵 sit next to Acme in this answer.',
] as const;

export const COMPETITOR_DOMAINS = [
  'globex.example',
  'initech.example',
  'umbrella-corp.example',
  'hooli.example',
  'piedpiper.example',
  'soylent.example',
  'xn--bcher-kva.example',
] as const;

/** The `edge_values` variant's citation titles. */
export const PAGE_TITLES = [
  'Best AI visibility tools in 2026',
  'Acme vs Globex: an honest comparison',
  'Ранжирование сервисов аналитики',
  '最佳分析工具评测',
  'Why "share of voice" matters 📣',
  'Guía completa: visibilidad en búsquedas con IA',
] as const;

export const DOMAIN_WORDS = [
  'acme',
  'northwind',
  'contoso',
  'fabrikam',
  'tailspin',
  'wingtip',
  'adventure-works',
  'litware',
] as const;
export const COUNTRIES = ['US', 'DE', 'FR', 'JP', 'BR', 'GB', 'IL', 'EG', 'CN'] as const;
export const LANGUAGES = ['en', 'de', 'fr', 'ja', 'pt-BR', 'he', 'ar', 'zh-Hans'] as const;
export const NICHES = [
  'B2B SaaS analytics',
  'Consumer electronics',
  'Outdoor gear & apparel',
  'Fintech — payments',
  'Healthcare / telemedicine',
] as const;
