import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import {
  BlobRefused,
  blobContent,
  CHUNK_BYTES,
  findBlob,
  saveBlobToFile,
  sweepAbandonedChunks,
  writeBlob,
} from './blob-store.ts';
import { insertChunk } from './blobs.repository.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `bytes` in pieces of the given sizes, in turn, as an upload arrives. */
async function* piecesOf(bytes: Buffer, sizes: number[]) {
  for (let at = 0, turn = 0; at < bytes.length; turn++) {
    const size = sizes[turn % sizes.length] ?? 1;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

/** A promise and the function that resolves it. */
function signal() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve: () => resolve() };
}

async function collect(stream: Readable) {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe.each(DIALECTS)('the blob store on $dialect', (target) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(target, { migrated: true });
  });
  afterEach(async () => {
    await database.dispose();
  });

  const stored = async () => ({
    blobs: (await database.db.selectFrom('blobs').select('id').execute()).length,
    chunks: (await database.db.selectFrom('blob_chunks').select('blob_id').execute()).length,
  });

  it('streams a blob of several chunks in and out byte for byte', async () => {
    const content = randomBytes(3 * CHUNK_BYTES + 12_345);
    const blob = await writeBlob(
      database.db,
      { kind: 'agent-bundle', name: 'agent.tar.gz', sha256: sha256(content), maxBytes: 10 * CHUNK_BYTES },
      piecesOf(content, [65_536, 1, 300_001, 7]),
    );
    expect(blob).toMatchObject({ kind: 'agent-bundle', name: 'agent.tar.gz', sha256: sha256(content) });
    expect(blob.size).toBe(content.length);
    const chunks = await database.db
      .selectFrom('blob_chunks')
      .select(['seq', 'content'])
      .where('blob_id', '=', blob.id)
      .orderBy('seq')
      .execute();
    expect(chunks.map((chunk) => chunk.seq)).toEqual([0, 1, 2, 3]);
    expect(chunks.map((chunk) => chunk.content.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, 12_345]);
    expect((await collect(blobContent(database.db, blob))).equals(content)).toBe(true);
  });

  it('cuts chunks at their size whatever the pieces the content arrives in', async () => {
    const content = randomBytes(10_007);
    const blob = await writeBlob(
      database.db,
      { kind: 'database-backup', name: 'copy.dump', maxBytes: 20_000, chunkBytes: 1000 },
      piecesOf(content, [333, 2500, 1]),
    );
    expect(blob.sha256).toBe(sha256(content));
    expect(await stored()).toEqual({ blobs: 1, chunks: 11 });
    expect((await collect(blobContent(database.db, blob))).equals(content)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'blob-file-'));
    try {
      await saveBlobToFile(database.db, blob.id, join(dir, 'copy.dump'));
      expect(readFileSync(join(dir, 'copy.dump')).equals(content)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps nothing of a refused or failed write', async () => {
    const content = randomBytes(5000);
    const write = (source: AsyncIterable<Uint8Array>, expected?: string, maxBytes = 4000) =>
      writeBlob(database.db, { kind: 'agent-bundle', name: 'a', sha256: expected, maxBytes, chunkBytes: 1000 }, source);
    await expect(write(piecesOf(Buffer.alloc(0), [1]))).rejects.toMatchObject({ reason: 'empty' });
    await expect(write(piecesOf(content, [700]))).rejects.toMatchObject({ reason: 'too_large' });
    const mismatch = await write(piecesOf(content, [700]), sha256(Buffer.from('other')), 10_000).catch(
      (error: unknown) => error,
    );
    expect(mismatch).toBeInstanceOf(BlobRefused);
    expect(mismatch).toMatchObject({ reason: 'sha256', actual: sha256(content) });
    async function* broken() {
      yield content.subarray(0, 2500);
      throw new Error('connection reset');
    }
    await expect(write(broken(), undefined, 10_000)).rejects.toThrow('connection reset');
    expect(await stored()).toEqual({ blobs: 0, chunks: 0 });
  });

  it('shows a blob only once all its chunks are in', async () => {
    const held = signal();
    const firstSent = signal();
    async function* slow() {
      yield randomBytes(2500);
      firstSent.resolve();
      await held.promise;
      yield randomBytes(10);
    }
    const writing = writeBlob(
      database.db,
      { kind: 'agent-bundle', name: 'a', maxBytes: 10_000, chunkBytes: 1000 },
      slow(),
    );
    await firstSent.promise;
    // The two full chunks are written before the source is asked for more.
    const during = await stored();
    expect(during).toEqual({ blobs: 0, chunks: 2 });
    held.resolve();
    const blob = await writing;
    expect(await findBlob(database.db, blob.id)).toMatchObject({ size: 2510 });
    expect(await stored()).toEqual({ blobs: 1, chunks: 3 });
  });

  it('sweeps the chunks of writes abandoned for a while, and only those', async () => {
    const kept = await writeBlob(
      database.db,
      { kind: 'agent-bundle', name: 'kept', maxBytes: 10_000, chunkBytes: 1000 },
      piecesOf(randomBytes(1500), [1500]),
    );
    await database.db.updateTable('blob_chunks').set({ created_at: 1000 }).where('blob_id', '=', kept.id).execute();
    const bytes = new Uint8Array([1, 2, 3]);
    // Abandoned: nothing added for long. Going: an old first chunk, a recent second one.
    await insertChunk(database.db, 'abandoned', 0, bytes, 1000);
    await insertChunk(database.db, 'abandoned', 1, bytes, 2000);
    await insertChunk(database.db, 'going', 0, bytes, 1000);
    await insertChunk(database.db, 'going', 1, bytes, 9000);
    expect(await sweepAbandonedChunks(database.db, 5000)).toBe(2);
    const left = await database.db.selectFrom('blob_chunks').select('blob_id').orderBy('blob_id').execute();
    expect([...new Set(left.map((row) => row.blob_id))].sort()).toEqual(['going', kept.id].sort());
  });

  it('fails a read whose chunk is missing instead of ending short', async () => {
    const blob = await writeBlob(
      database.db,
      { kind: 'agent-bundle', name: 'a', maxBytes: 10_000, chunkBytes: 1000 },
      piecesOf(randomBytes(2500), [2500]),
    );
    await database.db.deleteFrom('blob_chunks').where('blob_id', '=', blob.id).where('seq', '=', 1).execute();
    await expect(collect(blobContent(database.db, blob))).rejects.toThrow(/chunk 1 is missing after 1000 of 2500/);
  });
});
