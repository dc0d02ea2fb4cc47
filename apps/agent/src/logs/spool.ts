import { readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccessLogLine, StreamLogLine } from '@rampart/contracts';
import { readJsonFile, writeFileAtomic } from '../fs-atomic.ts';
import { batchBody } from './batch-body.ts';
import type { FilePosition } from './tailer.ts';

/** How far the logs have been taken into batches, and the sequence of the last batch. */
export interface LogCursor {
  seq: number;
  access: FilePosition | null;
  stream: FilePosition | null;
  /** Lines lost for good (spool full, unreadable lines, batches the master refused), cumulative. */
  dropped: number;
}

export interface SpooledBatch {
  seq: number;
  access: AccessLogLine[];
  stream: StreamLogLine[];
  /** The cursor right after this batch: written with it, so batch and checkpoint cannot disagree. */
  cursor: LogCursor;
  /** The request body (POST /agent/v1/logs: seq, access, stream) as UTF-8 JSON, made once with the batch. */
  body: Buffer<ArrayBuffer>;
}

/** Batches made by this process are kept in memory up to this many bytes of body: sent without a read. */
const RECENT_BYTES = 16 * 1024 * 1024;

/** A batch file is its body without the closing brace, then this, the cursor JSON and the brace. */
const CURSOR_KEY = ',"cursor":';

/**
 * The body a batch file holds before its cursor (see `Spool.add`), copied out rather than made again
 * from the parsed lines: stringifying a batch costs about as much as parsing it. A file laid out
 * otherwise has its body made from its lines.
 */
function storedBody(content: Buffer, stored: Omit<SpooledBatch, 'body'>): Buffer<ArrayBuffer> {
  const end = content.lastIndexOf(CURSOR_KEY);
  if (end < 0 || Object.keys(stored).join() !== 'seq,access,stream,cursor') {
    return batchBody(stored.seq, stored.access, stored.stream);
  }
  const body = Buffer.allocUnsafe(end + 1);
  content.copy(body, 0, 0, end);
  body[end] = 0x7d; // the body's closing brace
  return body;
}

/** Removes a file that may be gone already (rm would look it up first, on every acknowledgement). */
async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

const EMPTY: LogCursor = { seq: 0, access: null, stream: null, dropped: 0 };
const NAME = /^(\d{12})\.json$/;

/**
 * Batches on disk until the master acknowledges them. Each batch file carries the log cursor after
 * it, so after a kill -9 the agent resumes exactly after the last batch it made, and re-sends
 * unacknowledged batches under the same sequence numbers (the master stores each (node, seq) once).
 */
export class Spool {
  private readonly dir: string;
  private readonly cursorFile: string;
  private maxBytesValue: number;
  private sizes = new Map<number, number>();
  private cursorValue: LogCursor = { ...EMPTY };
  /**
   * The cursor the cursor file holds. Behind `cursorValue` while the newest batch file carries it:
   * the file is written before that batch file goes (see `remove`), not once a batch.
   */
  private savedCursor: LogCursor | null = null;
  /** Batches written by this process, not acknowledged yet, by seq (their files hold the same). */
  private recent = new Map<number, SpooledBatch>();
  private recentBytes = 0;

  constructor(dir: string, cursorFile: string, maxBytes: number) {
    this.dir = dir;
    this.cursorFile = cursorFile;
    this.maxBytesValue = maxBytes;
  }

  /** The cap on the bytes of batches on disk. */
  get maxBytes(): number {
    return this.maxBytesValue;
  }

  /**
   * Changes the cap from the next batch on. Batches already spooled are kept (and keep their order)
   * even above a lowered cap: new batches are dropped, as when full, until sending frees room.
   */
  setMaxBytes(bytes: number): void {
    this.maxBytesValue = bytes;
  }

  get cursor(): Readonly<LogCursor> {
    return this.cursorValue;
  }

  get usedBytes(): number {
    let total = 0;
    for (const size of this.sizes.values()) total += size;
    return total;
  }

  /** Reads the cursor and the batches left on disk; the newest of them wins over the cursor file. */
  async open(): Promise<LogCursor> {
    const saved = (await readJsonFile(this.cursorFile)) as Partial<LogCursor> | null;
    const fromFile: LogCursor = { ...EMPTY, ...saved };
    this.sizes.clear();
    this.forgetRecent();
    const seqs: number[] = [];
    for (const name of await readdir(this.dir)) {
      const match = NAME.exec(name);
      if (match) seqs.push(Number(match[1]));
      else if (name.endsWith('.tmp')) await rm(join(this.dir, name), { force: true });
    }
    seqs.sort((a, b) => a - b);
    for (const seq of seqs) this.sizes.set(seq, (await stat(this.fileOf(seq))).size);
    this.savedCursor = fromFile;
    this.cursorValue = (await this.newestBatchCursor(seqs, fromFile)) ?? fromFile;
    return this.cursorValue;
  }

  /**
   * The cursor of the newest readable batch newer than `fromFile`, with the larger count of dropped
   * lines (both only grow); null when there is none.
   */
  private async newestBatchCursor(seqs: readonly number[], fromFile: LogCursor): Promise<LogCursor | null> {
    for (let at = seqs.length - 1; at >= 0 && seqs[at]! > fromFile.seq; at--) {
      const batch = await this.read(seqs[at]!);
      if (batch) return { ...batch.cursor, dropped: Math.max(batch.cursor.dropped, fromFile.dropped) };
    }
    return null;
  }

  /**
   * Stores lines as the next batch, or drops them when the spool is full; either way the cursor
   * moves past them. Returns the batch, or null when dropped.
   */
  async add(
    access: AccessLogLine[],
    stream: StreamLogLine[],
    positions: { access: FilePosition | null; stream: FilePosition | null },
    malformed = 0,
  ): Promise<SpooledBatch | null> {
    const base = { ...this.cursorValue, ...positions, dropped: this.cursorValue.dropped + malformed };
    if (access.length + stream.length === 0) {
      await this.saveCursor(base);
      return null;
    }
    const seq = base.seq + 1;
    const cursor = { ...base, seq };
    const body = batchBody(seq, access, stream);
    // The file is the body with the cursor after it: JSON.stringify({seq, access, stream, cursor}).
    const content = [body.subarray(0, -1), Buffer.from(`${CURSOR_KEY}${JSON.stringify(cursor)}}`)];
    const size = content[0]!.length + content[1]!.length;
    if (this.usedBytes + size > this.maxBytesValue) {
      await this.saveCursor({ ...base, dropped: base.dropped + access.length + stream.length });
      return null;
    }
    await writeFileAtomic(this.fileOf(seq), content, 0o600);
    this.sizes.set(seq, size);
    const batch: SpooledBatch = { seq, access, stream, cursor, body };
    if (this.recentBytes + body.length <= RECENT_BYTES) {
      this.recent.set(seq, batch);
      this.recentBytes += body.length;
    }
    // The batch file carries the cursor: the cursor file is written when that file goes.
    this.cursorValue = cursor;
    return batch;
  }

  /** The oldest batch not yet acknowledged (after `after`: the ones before it are being sent). */
  async oldest(after = 0): Promise<SpooledBatch | null> {
    const seqs = [...this.sizes.keys()].filter((seq) => seq > after).sort((a, b) => a - b);
    for (const seq of seqs) {
      const batch = this.recent.get(seq) ?? (await this.read(seq));
      if (batch) return batch;
      this.sizes.delete(seq);
    }
    return null;
  }

  /** Forgets an acknowledged batch. */
  async remove(seq: number): Promise<void> {
    // The newest batch file may be all that holds the cursor after it: the cursor file takes it
    // first. An older batch file goes without a write, the newest still holds a newer cursor.
    if (this.savedCursor !== this.cursorValue && seq >= this.newestSeq()) await this.saveCursor(this.cursorValue);
    await removeFile(this.fileOf(seq));
    this.sizes.delete(seq);
    const kept = this.recent.get(seq);
    if (kept) {
      this.recent.delete(seq);
      this.recentBytes -= kept.body.length;
    }
  }

  /** Counts lines lost after the fact (a batch the master refused for good). */
  async addDropped(lines: number): Promise<void> {
    await this.saveCursor({ ...this.cursorValue, dropped: this.cursorValue.dropped + lines });
  }

  get pendingBatches(): number {
    return this.sizes.size;
  }

  private newestSeq(): number {
    let newest = 0;
    for (const seq of this.sizes.keys()) newest = Math.max(newest, seq);
    return newest;
  }

  private async saveCursor(cursor: LogCursor): Promise<void> {
    this.cursorValue = cursor;
    await writeFileAtomic(this.cursorFile, JSON.stringify(cursor), 0o600);
    // Set once written: a batch made meanwhile moved `cursorValue` on, and is not in the file.
    this.savedCursor = cursor;
  }

  private forgetRecent(): void {
    this.recent.clear();
    this.recentBytes = 0;
  }

  private async read(seq: number): Promise<SpooledBatch | null> {
    try {
      const content = await readFile(this.fileOf(seq));
      const stored = JSON.parse(content.toString()) as Omit<SpooledBatch, 'body'>;
      return { ...stored, body: storedBody(content, stored) };
    } catch {
      return null;
    }
  }

  private fileOf(seq: number): string {
    return join(this.dir, `${String(seq).padStart(12, '0')}.json`);
  }
}
