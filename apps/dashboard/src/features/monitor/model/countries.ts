import { COUNTRY_CODES } from '@rampart/contracts';

const namers = new Map<string, Intl.DisplayNames | null>();

/** A country's name in `language` from its ISO 3166-1 alpha-2 code (the code itself where none is known). */
export function countryName(code: string, language: string): string {
  if (code === '') return '';
  let namer = namers.get(language);
  if (namer === undefined) {
    try {
      namer = new Intl.DisplayNames([language], { type: 'region' });
    } catch {
      namer = null;
    }
    namers.set(language, namer);
  }
  try {
    return namer?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every country as a select option, by name in `language`: "China (CN)". */
export const countryOptions = (language: string) =>
  COUNTRY_CODES.map((code) => ({ value: code, label: `${countryName(code, language)} (${code})` })).sort((a, b) =>
    a.label.localeCompare(b.label, language),
  );
