/** An ISO time from the API in the user's language; a dash when absent. */
export const formatLogTime = (value: string | null | undefined, language: string): string => {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString(language);
};

/** A picked moment (anything with toISOString) as the query's ISO time, or undefined. */
export const queryTime = (picked: { toISOString(): string } | null | undefined): string | undefined =>
  picked ? picked.toISOString() : undefined;

/** The masked request body as indented JSON for the detail drawer. */
export const changesText = (changes: unknown): string =>
  changes === null || changes === undefined ? '—' : JSON.stringify(changes, null, 2);
