import { DEFAULT_LINE_CODE, type LineView } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, LinesTable } from '../../db/schema.ts';

export type LineRow = Selectable<LinesTable>;

export const presentLine = (row: LineRow): LineView => ({
  id: row.id,
  provider: row.provider,
  code: row.code,
  name_zh: row.name_zh,
  name_en: row.name_en,
});

export const isDefaultLine = (line: Pick<LineRow, 'provider' | 'code'>) =>
  line.provider === '' && line.code === DEFAULT_LINE_CODE;

/**
 * The line's code in one provider's calls: null for the default line (each provider names its own),
 * the code itself for a line of every provider or of that provider, undefined for another's line.
 */
export function providerLineCode(
  line: Pick<LineRow, 'provider' | 'code'>,
  providerName: string,
): string | null | undefined {
  if (isDefaultLine(line)) return null;
  if (line.provider === '' || line.provider === providerName) return line.code;
  return undefined;
}

export const listLines = (db: Kysely<Database>) =>
  db.selectFrom('lines').selectAll().orderBy('provider').orderBy('id').execute();

export const findLine = (db: Kysely<Database>, id: number) =>
  db.selectFrom('lines').selectAll().where('id', '=', id).executeTakeFirst();
