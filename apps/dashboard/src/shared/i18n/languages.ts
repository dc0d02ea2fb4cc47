export const LANGUAGES = [
  { code: 'zh-CN', label: '简体中文' },
  { code: 'en-US', label: 'English' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const LANGUAGE_STORAGE_KEY = 'rampart.language';

export const isLanguage = (value: unknown): value is Language => LANGUAGES.some((language) => language.code === value);

/** A choice the user made wins; otherwise English browsers get en-US and everyone else the default, zh-CN. */
export const detectLanguage = (stored: string | null, browserLanguages: readonly string[]): Language => {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en-US';
  }
  return DEFAULT_LANGUAGE;
};
