import { ACCESS_LOG_COLUMNS, type AccessLogEntry } from '@rampart/contracts';

/**
 * A CSV field (RFC 4180): text is always quoted with quotes doubled, so CR, LF and commas stay inside
 * it; text a spreadsheet would run as a formula (leading = + - @, tab or CR) gets a leading '.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${inert.replaceAll('"', '""')}"`;
}

export const csvHeader = () => `${ACCESS_LOG_COLUMNS.join(',')}\r\n`;

export const csvLine = (entry: AccessLogEntry) =>
  `${ACCESS_LOG_COLUMNS.map((column) => csvField(entry[column])).join(',')}\r\n`;

/** The header, then a line per entry, as text chunks of a few hundred lines for a streamed reply. */
export async function* csvChunks(entries: AsyncIterable<AccessLogEntry>): AsyncGenerator<string> {
  let chunk = csvHeader();
  let lines = 0;
  for await (const entry of entries) {
    chunk += csvLine(entry);
    if (++lines % 500 === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
