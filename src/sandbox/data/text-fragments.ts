/**
 * Raw material for evidence text: the cases that break naive loaders (emoji and other
 * astral characters, right-to-left scripts, CJK, combining marks, quotes of every kind,
 * backslashes, tabs and newlines).
 */
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
