import { isLanguage, LANGUAGES, type Language } from '../../../shared/i18n/languages.ts';

/** The languages a visitor may pick, as /sys/setting lists them (every language until that has loaded). */
export const pickableLanguages = (allowed: readonly string[] | undefined) => {
  const listed = LANGUAGES.filter(({ code }) => allowed?.includes(code));
  return listed.length > 0 ? listed : LANGUAGES;
};

/** Whether the browser asks for a language the dashboard has (then that one was chosen for the visitor). */
const browserChose = (browserLanguages: readonly string[]) => browserLanguages.some((tag) => /^(zh|en)\b/i.test(tag));

/**
 * The site's default language (/sys/setting) for a visitor who never picked one and whose browser
 * asks for none the dashboard has, or whose language the site no longer offers; never stored as
 * their choice.
 */
export const siteLanguageFor = (
  visitor: { stored: string | null; browserLanguages: readonly string[]; current: string },
  site: { default_language?: string; languages?: readonly string[] } | null | undefined,
): Language | null => {
  const preferred = site?.default_language;
  if (!isLanguage(preferred) || visitor.stored !== null || visitor.current === preferred) return null;
  const offered = site?.languages?.includes(visitor.current) ?? true;
  return offered && browserChose(visitor.browserLanguages) ? null : preferred;
};
