import type { Language } from './languages.ts';

export type LocaleTree = { readonly [key: string]: string | LocaleTree };

/** Strings in every language, as the locale files of each feature hold them. */
export type Translations = Record<Language, LocaleTree>;
