import { useTranslation } from 'react-i18next';
import { addLocaleBundle, type LocaleBundle } from './localeBundle.ts';

/**
 * `useTranslation` for a part of the app whose strings come with its code (a page, a lazy section).
 * The bundles are added during the first render, before anything below reads them; adding is idempotent.
 */
export const useLocales = (...bundles: readonly LocaleBundle[]) => {
  const translation = useTranslation();
  for (const bundle of bundles) addLocaleBundle(translation.i18n, bundle);
  return translation;
};
