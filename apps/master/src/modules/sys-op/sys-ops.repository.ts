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
    // Read through a write, which locks the row until the end: lines several masters add at once all stay.
    const row = await trx
      .updateTable('sys_ops')
      .set((eb) => ({ log: eb.ref('log') }))
      .where('id', '=', id)
      .returning(['log', 'state'])
      .executeTakeFirst();
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

export async function setOpBlob(db: Kysely<Database>, id: number, blobId: string | null) {
  await db.updateTable('sys_ops').set({ blob_id: blobId }).where('id', '=', id).execute();
}

/** The newest master upgrade that succeeded and whose bundle is still kept: the release other masters follow. */
export const newestDoneMasterUpgrade = (db: Kysely<Database>) =>
  db
    .selectFrom('sys_ops')
    .select(['id', 'version', 'blob_id'])
    .where('kind', '=', 'master-upgrade')
    .where('state', '=', 'done')
    .where('blob_id', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/** Forgets the bundles of master upgrade `id` (or of those before it) and answers their blob ids, to delete. */
export async function takeMasterBundles(db: Kysely<Database>, which: { id: number; older: boolean }) {
  const rows = await db
    .selectFrom('sys_ops')
    .select(['id', 'blob_id'])
    .where('kind', '=', 'master-upgrade')
    .where('id', which.older ? '<' : '=', which.id)
    .where('blob_id', 'is not', null)
    .execute();
  if (rows.length === 0) return [];
  await db
    .updateTable('sys_ops')
    .set({ blob_id: null })
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  return rows.flatMap((row) => (row.blob_id ? [row.blob_id] : []));
}
