import { Readable } from 'node:stream';
import type { OpLogEntry } from '@rampart/contracts';

const COLUMNS = [
  'time',
  'account',
  'impersonator',
  'auth_method',
  'api_key_id',
  'action',
  'method',
  'route',
  'target_ids',
  'changes',
  'ip',
  'user_agent',
  'result',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break; a leading = + - @ gets
 * a quote mark in front so that a spreadsheet never runs it as a formula.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const csvLine = (entry: OpLogEntry) =>
  `${[
    entry.created_at,
    entry.account ?? `#${entry.user_id}`,
    entry.impersonator_account ?? '',
    entry.auth_method,
    entry.api_key_id ?? '',
    entry.action,
    entry.method,
    entry.route,
    entry.target_ids.join(' '),
    JSON.stringify(entry.changes),
    entry.ip,
    entry.user_agent,
    entry.result,
  ]
    .map(csvField)
    .join(',')}\r\n`;

/** The header, then a line per entry as the rows arrive: the file is never held in memory whole. */
export function opLogCsv<Row>(rows: AsyncIterable<Row>, present: (row: Row) => OpLogEntry): Readable {
  return Readable.from(
    (async function* () {
      // A byte order mark, so spreadsheet programs read the UTF-8 (Chinese names) right.
      yield `\uFEFF${COLUMNS.join(',')}\r\n`;
      for await (const row of rows) yield csvLine(present(row));
    })(),
  );
}
