import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type BlobRow, commitBlob, deleteChunks, findBlob, insertChunk, readChunk } from './blobs.repository.ts';

export type { BlobRow } from './blobs.repository.ts';
export { deleteBlob, findBlob, sweepAbandonedChunks } from './blobs.repository.ts';

export type BlobKind = 'agent-bundle' | 'master-bundle' | 'database-backup' | 'database-export';

/** Rows of 1 MiB: small enough to hold a few in memory, large enough that a bundle is a few hundred rows. */
export const CHUNK_BYTES = 1024 * 1024;

export interface BlobSpec {
  kind: BlobKind;
  name: string;
  /** Refused unless the content hashes to this (64 lowercase hex digits); recorded as it comes otherwise. */
  sha256?: string | undefined;
  /** Refused past this many bytes. */
  maxBytes: number;
  /** Bytes per chunk row (tests make them small). */
  chunkBytes?: number | undefined;
}

/** Why a write was refused; nothing of it is kept. */
export class BlobRefused extends Error {
  readonly reason: 'empty' | 'too_large' | 'sha256';
  /** The sha256 of what arrived, when it was not the one expected. */
  readonly actual: string | undefined;

  constructor(reason: BlobRefused['reason'], message: string, actual?: string) {
    super(message);
    this.name = 'BlobRefused';
    this.reason = reason;
    this.actual = actual;
  }
}

const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Streams `source` into the blob store in chunk rows, hashing and counting it on the way, and
 * writes the blob's row once every chunk is in: until then no reader sees it. Refused (BlobRefused)
 * when it is empty, larger than `maxBytes` or not the sha256 expected; on any failure its chunks
 * are deleted (and swept later if even that fails).
 */
export async function writeBlob(db: Kysely<Database>, spec: BlobSpec, source: AsyncIterable<Uint8Array>) {
  const chunkBytes = spec.chunkBytes ?? CHUNK_BYTES;
  const id = randomUUID();
  const hash = createHash('sha256');
  let size = 0;
  let chunks = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async (all: boolean) => {
    while (pendingBytes >= chunkBytes || (all && pendingBytes > 0)) {
      const joined = Buffer.concat(pending, pendingBytes);
      const content = joined.subarray(0, Math.min(chunkBytes, joined.length));
      await insertChunk(db, id, chunks++, content, Date.now());
      const rest = joined.subarray(content.length);
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
    }
  };
  try {
    for await (const piece of source) {
      const bytes = asBuffer(piece);
      size += bytes.length;
      if (size > spec.maxBytes) throw new BlobRefused('too_large', `larger than ${spec.maxBytes} bytes`);
      hash.update(bytes);
      pending.push(bytes);
      pendingBytes += bytes.length;
      await flush(false);
    }
    await flush(true);
    if (size === 0) throw new BlobRefused('empty', 'empty');
    const sha256 = hash.digest('hex');
    if (spec.sha256 !== undefined && sha256 !== spec.sha256) {
      throw new BlobRefused('sha256', `the content received has sha256 ${sha256}`, sha256);
    }
    const row: BlobRow = { id, kind: spec.kind, name: spec.name, sha256, size, created_at: Date.now() };
    await commitBlob(db, row, chunks);
    return row;
  } catch (error) {
    if (chunks > 0) await deleteChunks(db, id).catch(() => undefined);
    throw error;
  }
}

/**
 * The content of a blob as a byte stream, one chunk row read at a time as the consumer takes them;
 * it fails (rather than ending short) when a chunk is missing.
 */
export function blobContent(db: Kysely<Database>, blob: Pick<BlobRow, 'id' | 'size'>): Readable {
  async function* chunks() {
    let read = 0;
    for (let seq = 0; read < blob.size; seq++) {
      const row = await readChunk(db, blob.id, seq);
      if (!row) throw new Error(`blob ${blob.id}: chunk ${seq} is missing after ${read} of ${blob.size} bytes`);
      const bytes = asBuffer(row.content);
      read += bytes.length;
      yield bytes;
    }
    if (read !== blob.size) throw new Error(`blob ${blob.id}: ${read} bytes stored, ${blob.size} recorded`);
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Writes a blob to `file`, checking its size and sha256 against its row; the file is removed on failure. */
export async function saveBlobToFile(db: Kysely<Database>, id: string, file: string): Promise<BlobRow> {
  const blob = await findBlob(db, id);
  if (!blob) throw new Error(`blob ${id} is not in the database`);
  const hash = createHash('sha256');
  try {
    await pipeline(
      blobContent(db, blob),
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(file, { mode: 0o600 }),
    );
    const sha256 = hash.digest('hex');
    if (sha256 !== blob.sha256) throw new Error(`blob ${id} reads back with sha256 ${sha256}, not ${blob.sha256}`);
    return blob;
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}
