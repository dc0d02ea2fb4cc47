import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_STORAGE_KEY } from '../../../shared/i18n/languages.ts';
import { useSiteConfig } from '../../../shared/system/systemInfo.ts';
import { pickableLanguages, siteLanguageFor } from './siteLanguages.ts';

/** On the sign-in pages: applies the site's default language where it should (above); answers the languages to offer. */
export const useSiteLanguages = () => {
  const { i18n } = useTranslation();
  const site = useSiteConfig();
  useEffect(() => {
    const language = siteLanguageFor(
      {
        stored: localStorage.getItem(LANGUAGE_STORAGE_KEY),
        browserLanguages: navigator.languages,
        current: i18n.language,
      },
      site,
    );
    if (!language) return;
    void i18n.changeLanguage(language);
    document.documentElement.lang = language;
  }, [i18n, site]);
  return pickableLanguages(site?.languages);
};
