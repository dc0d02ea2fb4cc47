import { type RawBuilder, sql } from 'kysely';

/**
 * `column in (ids)` with the ids written into the statement as numbers. A customer may own more
 * sites than one statement takes parameters (SQLite 32,766, PostgreSQL 65,535); ids come from the
 * database and each must be a safe integer, so nothing a user types is written this way. The list
 * must not be empty (callers answer nothing first).
 */
export function inIds(column: string, ids: readonly number[]): RawBuilder<boolean> {
  if (ids.length === 0) throw new Error(`${column}: an empty id list has no query`);
  for (const id of ids) {
    if (!Number.isSafeInteger(id)) throw new Error(`${column}: ${String(id)} is not an id`);
  }
  return sql<boolean>`${sql.ref(column)} in (${sql.raw(ids.join(', '))})`;
}
