/** HTTP statuses with their own text in spec §8; others fall back to a generic one. */
const KNOWN_STATUSES = new Set([400, 401, 403, 404, 408, 500, 501, 502, 503, 504, 505]);

export type Translate = (key: string, values?: Record<string, string>) => string;

export const statusMessage = (status: number, url: string, translate: Translate): string =>
  KNOWN_STATUSES.has(status) ? translate(`http.status.${status}`, { url }) : translate('http.failed');
