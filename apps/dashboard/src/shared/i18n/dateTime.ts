// What Date#toLocaleString shows by default.
const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * Date and time as toLocaleString shows them, one formatter per language for every cell. The first
 * formatter a page creates costs tens of milliseconds (the locale data loads), so a page that opens
 * with times asks for it while its code loads (app/prefetch.ts).
 */
export const dateTimeFormat = (language: string): Intl.DateTimeFormat => {
  const known = formats.get(language);
  if (known) return known;
  const format = new Intl.DateTimeFormat(language, DATE_TIME);
  formats.set(language, format);
  return format;
};
