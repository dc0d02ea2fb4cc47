import type { SysOp, SysOpLogLine, SysOpState } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SysOpsTable } from '../../db/schema-sys-op.ts';

export type SysOpKind = SysOp['kind'];
type Row = Selectable<SysOpsTable>;
const iso = (ms: number) => new Date(ms).toISOString();
/** A log keeps its newest lines. */
const MAX_LINES = 500;

export const presentOp = (row: Row): SysOp => ({
  id: row.id,
  kind: row.kind as SysOpKind,
  state: row.state as SysOpState,
  version: row.version,
  created_at: iso(row.created_at),
  finished_at: row.finished_at === null ? null : iso(row.finished_at),
  log: JSON.parse(row.log) as SysOpLogLine[],
});

export async function insertOp(db: Kysely<Database>, kind: SysOpKind, version: string, state: SysOpState) {
  const row = await db
    .insertInto('sys_ops')
    .values({ kind, version, state, log: '[]', created_at: Date.now(), finished_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const findOp = (db: Kysely<Database>, id: number) =>
  db.selectFrom('sys_ops').selectAll().where('id', '=', id).executeTakeFirst();

export const newestOp = (db: Kysely<Database>, kind: SysOpKind) =>
  db.selectFrom('sys_ops').selectAll().where('kind', '=', kind).orderBy('id', 'desc').limit(1).executeTakeFirst();

export const openOp = (db: Kysely<Database>, kind: SysOpKind) =>
  db
    .selectFrom('sys_ops')
    .selectAll()
    .where('kind', '=', kind)
    .where('state', 'in', ['running', 'waiting'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export async function listOps(db: Kysely<Database>, kind: SysOpKind, page: number, limit: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('sys_ops')
      .selectAll()
      .where('kind', '=', kind)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('sys_ops')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentOp), total: Number(total.n) };
}

/** Adds a line to an operation's log and, when given, moves it to `state` (a settled state ends it). */
export async function logOp(
  db: Kysely<Database>,
  id: number,
  level: SysOpLogLine['level'],
  text: string,
  state?: SysOpState,
) {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('sys_ops').select(['log', 'state']).where('id', '=', id).executeTakeFirst();
    if (!row) return;
    const log = [...(JSON.parse(row.log) as SysOpLogLine[]), { time: iso(Date.now()), level, text }].slice(-MAX_LINES);
    const settled = state === 'done' || state === 'failed' || state === 'aborted';
    await trx
      .updateTable('sys_ops')
      .set({ log: JSON.stringify(log), ...(state && { state }), ...(settled && { finished_at: Date.now() }) })
      .where('id', '=', id)
      .execute();
  });
}

/** Ends an open operation as aborted; false when it had already ended. */
export async function abortOp(db: Kysely<Database>, id: number) {
  const row = await db
    .updateTable('sys_ops')
    .set({ state: 'aborted', finished_at: Date.now() })
    .where('id', '=', id)
    .where('state', 'in', ['running', 'waiting'])
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
