import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { BlobsTable } from '../../db/schema-blobs.ts';

export type BlobRow = Selectable<BlobsTable>;

export const insertChunk = (db: Kysely<Database>, blobId: string, seq: number, content: Uint8Array, now: number) =>
  db.insertInto('blob_chunks').values({ blob_id: blobId, seq, content, created_at: now }).execute();

/**
 * Makes a blob visible: its row is written in the transaction that counts its chunks, so a blob
 * whose chunks were swept while it was being written is refused rather than kept incomplete.
 */
export async function commitBlob(db: Kysely<Database>, row: BlobRow, chunks: number) {
  await db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('blob_chunks')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('blob_id', '=', row.id)
      .executeTakeFirstOrThrow();
    if (Number(found.n) !== chunks) {
      throw new Error(`blob ${row.id}: ${found.n} of its ${chunks} chunks are in the database`);
    }
    await trx.insertInto('blobs').values(row).execute();
  });
}

export const findBlob = (db: Kysely<Database>, id: string) =>
  db.selectFrom('blobs').selectAll().where('id', '=', id).executeTakeFirst();

export const readChunk = (db: Kysely<Database>, blobId: string, seq: number) =>
  db
    .selectFrom('blob_chunks')
    .select('content')
    .where('blob_id', '=', blobId)
    .where('seq', '=', seq)
    .executeTakeFirst();

/** The row first, so no reader finds a blob whose chunks are going. */
export async function deleteBlob(db: Kysely<Database>, id: string) {
  await db.deleteFrom('blobs').where('id', '=', id).execute();
  await deleteChunks(db, id);
}

export const deleteChunks = (db: Kysely<Database>, blobId: string) =>
  db.deleteFrom('blob_chunks').where('blob_id', '=', blobId).execute();

/**
 * Chunks of writes that never finished (a master that stopped mid-upload) and that nothing has added
 * to since `before`; a write still going adds a chunk every few MiB and keeps its own.
 */
export async function sweepAbandonedChunks(db: Kysely<Database>, before: number) {
  const result = await db
    .deleteFrom('blob_chunks')
    .where('blob_id', 'not in', (eb) => eb.selectFrom('blobs').select('id'))
    .where('blob_id', 'in', (eb) =>
      eb
        .selectFrom('blob_chunks as idle')
        .select('idle.blob_id')
        .groupBy('idle.blob_id')
        .having((having) => having.fn.max('idle.created_at'), '<', before),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
