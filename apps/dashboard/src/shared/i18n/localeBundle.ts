import type { i18n as I18n } from 'i18next';
import { LANGUAGES } from './languages.ts';
import type { Translations } from './translations.ts';

/** One feature's strings in every language; added to i18next when the code that shows them loads. */
export type LocaleBundle = Translations;

const added = new WeakMap<I18n, WeakSet<LocaleBundle>>();

/**
 * Adds a bundle under the strings already there, once per instance: remote translations merged
 * before the bundle arrived keep winning, as they do over the strings that were there from the start.
 */
export const addLocaleBundle = (i18n: I18n, bundle: LocaleBundle): void => {
  const bundles = added.get(i18n) ?? new WeakSet<LocaleBundle>();
  added.set(i18n, bundles);
  if (bundles.has(bundle)) return;
  bundles.add(bundle);
  // Deep, without overwriting; i18next copies the tree, so later merges leave the bundle alone.
  for (const { code } of LANGUAGES) i18n.addResourceBundle(code, 'translation', bundle[code], true, false);
};
