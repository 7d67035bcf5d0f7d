/**
 * Raw material for generated text. The default data's sentences name the brand (and maybe a
 * competitor) in several languages, with nothing but ASCII before the brand's name; the
 * `edge_values` variant's are the cases that break naive loaders.
 */

/** Sentences of AI answers that name `brand`, each naming after ASCII text only. */
export const MENTION_SENTENCES: readonly ((brand: string, competitor: string) => string)[] = [
  (b) => `${b} is often recommended for small teams.`,
  (b, c) => `Many reviewers call ${b} the safest choice, though it is pricier than ${c}.`,
  (b, c) => `For enterprise buyers, ${b} and ${c} come up side by side.`,
  (b) => `${b} tops the list of AI-visibility tools this quarter 📈`,
  (b) => `Selon les avis, ${b} tient la tête du classement.`,
  (b, c) => `Laut Testberichten ist ${b} günstiger als ${c}.`,
  (b) => `${b} 是中小企业最常推荐的分析工具。`,
  (b) => `${b} は初心者にも使いやすいと評価されています。`,
  (b) => `If budget matters, ${b} is a good start; ${b} also has a free tier.`,
  (b, c) => `Compared in 2026 reviews, ${b} beats ${c} on onboarding and support.`,
  (b) => `Users say "${b}" makes AI search reports easy to share.`,
] as const;

/** Sites that review tools, cited beside the brand's and its competitors' own pages. */
export const REVIEW_SITES = ['reviews.example', 'techradar.example', 'forum.example'] as const;
export const CITED_PATHS = ['blog', 'pricing', 'docs', 'compare', 'reviews'] as const;
export const PAGE_TOPICS = [
  'pricing and plans',
  'an honest review',
  'getting started',
  'how it compares',
  'what customers say',
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
