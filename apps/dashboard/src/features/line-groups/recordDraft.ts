import { LINE_WEIGHT, type LineRecord } from '@rampart/contracts';

/** One row of the resolution page: an IP of a line with its weight, primary or backup. */
export interface RecordDraft {
  key: number;
  line_id: number;
  ip: string;
  weight: number | null;
  backup: boolean;
}

let next = 1;
export const newKey = () => next++;

/** Why the rows cannot be saved (a translation key and its values), or null when they can. */
export function recordProblem(rows: readonly RecordDraft[]): { key: string; values?: Record<string, string> } | null {
  const seen = new Set<string>();
  for (const row of rows) {
    if (!row.ip) return { key: 'lineGroups.records.ipRequired' };
    if (
      row.weight === null ||
      !Number.isInteger(row.weight) ||
      row.weight < LINE_WEIGHT.min ||
      row.weight > LINE_WEIGHT.max
    )
      return { key: 'lineGroups.records.weightRule' };
    const id = `${row.line_id}|${row.ip}|${row.backup}`;
    if (seen.has(id)) return { key: 'lineGroups.records.duplicate', values: { ip: row.ip } };
    seen.add(id);
  }
  return null;
}

/** The rows as PUT /v1/node-groups/{id} takes them. */
export const recordsBody = (rows: readonly RecordDraft[]): LineRecord[] =>
  rows.map((row) => ({
    line_id: row.line_id,
    ip: row.ip,
    weight: row.weight ?? LINE_WEIGHT.default,
    backup: row.backup,
  }));
