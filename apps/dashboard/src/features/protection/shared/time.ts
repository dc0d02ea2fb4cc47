/** A time from the API, ISO text or Unix seconds, in the user's language; a dash when absent. */
export const formatTime = (value: string | number | null | undefined, language: string): string => {
  if (value === null || value === undefined || value === '' || value === 0) return '—';
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(language);
};
