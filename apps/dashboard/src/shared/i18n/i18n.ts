import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, LANGUAGES, type Language } from './languages.ts';
import { addLocaleBundle, type LocaleBundle } from './localeBundle.ts';
import type { Translations } from './translations.ts';

/**
 * A fresh i18next instance with the strings every page needs; features add theirs when their code
 * loads (useLocales). Tests pass the bundles they render up front. Ready when this returns.
 */
export const createI18n = (
  translations: Translations,
  language: Language,
  bundles: readonly LocaleBundle[] = [],
): I18n => {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    // A copy: merging remote translations must not change the bundled objects.
    resources: Object.fromEntries(
      LANGUAGES.map(({ code }) => [code, { translation: structuredClone(translations[code]) }]),
    ),
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES.map(({ code }) => code),
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  for (const bundle of bundles) addLocaleBundle(instance, bundle);
  return instance;
};

export const applyLanguage = (i18n: I18n, language: Language): void => {
  void i18n.changeLanguage(language);
  document.documentElement.lang = language;
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
};
