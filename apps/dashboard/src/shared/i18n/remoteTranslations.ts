import type { i18n as I18n } from 'i18next';
import type { HttpClient } from '../http/client.ts';
import { LANGUAGES } from './languages.ts';
import type { LocaleTree } from './translations.ts';

/** Spec §7: optional translations from the server, by language, merged over the built-in ones. */
export const REMOTE_TRANSLATIONS_PATH = '/api/system/i18n/list';

const isLocaleTree = (value: unknown): value is LocaleTree =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((leaf) => typeof leaf === 'string' || isLocaleTree(leaf));

/**
 * Asks for remote translations (`data: { 'zh-CN': {...}, 'en-US': {...} }`) and merges what it gets.
 * Failure is silent: the built-in strings are complete, and the master does not serve this call.
 */
export const loadRemoteTranslations = async (http: Pick<HttpClient, 'post'>, i18n: I18n): Promise<boolean> => {
  const languages = LANGUAGES.map(({ code }) => code);
  let data: unknown;
  try {
    data = await http.post<unknown>(REMOTE_TRANSLATIONS_PATH, { languages }, { silent: true, loginRequired: 'reject' });
  } catch {
    return false;
  }
  if (typeof data !== 'object' || data === null) return false;
  let merged = false;
  for (const language of languages) {
    const tree: unknown = (data as Record<string, unknown>)[language];
    if (!isLocaleTree(tree)) continue;
    i18n.addResourceBundle(language, 'translation', tree, true, true);
    merged = true;
  }
  // Components re-render on a language change; the language stays the same.
  if (merged) await i18n.changeLanguage(i18n.language);
  return merged;
};
