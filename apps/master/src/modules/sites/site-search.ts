/** Substrings this long are indexed; a shorter search term reads every domain. */
export const GRAM_LENGTH = 3;
/** A search looks up at most this many of its grams (spread over the term); the LIKE check stays exact. */
export const MAX_SEARCH_GRAMS = 16;

/** Distinct grams of a lowercase string, in order of first appearance (by code point, like SQL substr). */
function gramsOf(text: string, into: Set<string>) {
  const chars = Array.from(text);
  for (let i = 0; i + GRAM_LENGTH <= chars.length; i++) into.add(chars.slice(i, i + GRAM_LENGTH).join(''));
  return into;
}

/** Every distinct gram of a site's domains: its postings in site_grams (domains are ASCII, so SQL lower() agrees). */
export const siteGrams = (domains: readonly string[]): string[] => {
  const grams = new Set<string>();
  for (const domain of domains) gramsOf(domain.toLowerCase(), grams);
  return [...grams];
};

/** The term as it is matched: domains are stored lowercase. */
export const searchNeedle = (term: string) => term.toLowerCase();

/** A LIKE pattern (with `escape '\'`) for "contains needle". */
export const containsPattern = (needle: string) => `%${needle.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The grams a search looks up: all of the needle's, or MAX_SEARCH_GRAMS spread from its first to its
 * last for a long needle. Any subset finds every match; the LIKE check removes the rest.
 */
export function searchGrams(needle: string): string[] {
  const grams = [...gramsOf(needle, new Set())];
  if (grams.length <= MAX_SEARCH_GRAMS) return grams;
  const step = (grams.length - 1) / (MAX_SEARCH_GRAMS - 1);
  return Array.from({ length: MAX_SEARCH_GRAMS }, (_, k) => grams[Math.round(k * step)] as string);
}
