import { type FileHandle, open, stat } from 'node:fs/promises';

/** How far a log file has been consumed: its inode and the byte after the last line taken. */
export interface FilePosition {
  ino: number;
  offset: number;
}

export interface TailerOptions {
  /** Where a rotated file is moved (the agent's own rotation); looked at after a restart. */
  rotatedPath?: string;
  /** How long the old file is still read after a new one appears (nginx writes to it until it reopens). */
  graceMs?: number;
  chunkBytes?: number;
  /** After the file was found missing, how long before looking again (each look is two stat calls). */
  missingRetryMs?: number;
  now?: () => number;
}

/**
 * Reads whole lines from a log file that nginx appends to, from a checkpointed position. Follows
 * rotation: when the path names a new inode, the old file is read to its end first (with a grace
 * period for late writes), then the new file from its start. A file that shrank was truncated and
 * is read again from the start.
 */
export class FileTailer {
  private readonly path: string;
  private readonly rotatedPath: string;
  private readonly graceMs: number;
  private readonly chunkBytes: number;
  private readonly missingRetryMs: number;
  private missingUntil = 0;
  private readonly now: () => number;
  private handle: FileHandle | null = null;
  private ino = 0;
  /** Offset of the first byte not yet returned as part of a line. */
  private offset = 0;
  /**
   * Bytes read and not yet returned are `buffer[start, end)`. One buffer, kept and refilled: a fresh
   * chunk a read, joined to the rest, cost the agent page faults on every read.
   */
  private buffer: Buffer | null = null;
  private start = 0;
  private end = 0;
  private rotationSeenAt: number | null = null;
  private resumeFrom: FilePosition | null;

  constructor(path: string, position: FilePosition | null, options: TailerOptions = {}) {
    this.path = path;
    this.rotatedPath = options.rotatedPath ?? `${path}.1`;
    this.graceMs = options.graceMs ?? 1000;
    this.chunkBytes = options.chunkBytes ?? 256 * 1024;
    this.missingRetryMs = options.missingRetryMs ?? 0;
    this.now = options.now ?? Date.now;
    this.resumeFrom = position;
  }

  /** The position after the last line returned (what to checkpoint with those lines). */
  position(): FilePosition | null {
    if (this.handle) return { ino: this.ino, offset: this.offset };
    return this.resumeFrom;
  }

  /**
   * Up to `maxLines` complete lines (without the newline), and no more once `maxBytes` bytes of
   * lines are read; empty when there is nothing new.
   */
  async read(maxLines: number, maxBytes = Number.POSITIVE_INFINITY): Promise<string[]> {
    if (!this.handle) {
      if (this.now() < this.missingUntil) return [];
      if (!(await this.openInitial())) {
        this.missingUntil = this.now() + this.missingRetryMs;
        return [];
      }
    }
    const lines: string[] = [];
    let bytes = 0;
    while (lines.length < maxLines && bytes < maxBytes) {
      // Each whole line is decoded by itself: small strings, where one string of the whole chunk
      // (up to 256 KiB) and its split were a large allocation at every read.
      const buffer = this.buffer;
      let at = this.start;
      const newline = buffer !== null && at < this.end ? buffer.indexOf(0x0a, at) : -1;
      if (buffer !== null && newline >= 0 && newline < this.end) {
        if (newline > at) {
          const line = buffer.toString('utf8', at, newline);
          if (line.charCodeAt(0) > 0x20 || line.trim() !== '') lines.push(line);
        }
        at = newline + 1;
        bytes += at - this.start;
        this.offset += at - this.start;
        this.start = at;
        continue;
      }
      if (await this.fill()) continue;
      if (!(await this.followRotation())) break;
    }
    return lines;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.resumeFrom = this.position();
    this.handle = null;
    await handle?.close();
  }

  /** Reads more bytes after what is pending; false at the end of the file. */
  private async fill(): Promise<boolean> {
    const handle = this.handle!;
    const pending = this.end - this.start;
    let buffer = this.buffer ?? Buffer.allocUnsafe(this.chunkBytes);
    if (pending === buffer.length) {
      // A line longer than the buffer: a larger one, until the line fits.
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, this.start, this.end);
      buffer = larger;
    } else if (this.start > 0) {
      // The start of a line cut by the last read goes to the front, the rest is read after it.
      buffer.copyWithin(0, this.start, this.end);
    } else if (pending === 0 && buffer.length > this.chunkBytes) {
      buffer = Buffer.allocUnsafe(this.chunkBytes);
    }
    this.buffer = buffer;
    this.start = 0;
    this.end = pending;
    // Not zero-filled: only the bytes read are used.
    const { bytesRead } = await handle.read(buffer, pending, buffer.length - pending, this.offset + pending);
    if (bytesRead === 0) return false;
    this.end += bytesRead;
    return true;
  }

  /** Forgets the bytes read ahead (the file is read again from `offset`). */
  private dropPending(): void {
    this.start = 0;
    this.end = 0;
  }

  /** At the end of the current file: switch to a new file, or start over after a truncation. */
  private async followRotation(): Promise<boolean> {
    const current = await statOrNull(this.path);
    if (current && current.ino === this.ino) {
      this.rotationSeenAt = null;
      if (current.size < this.offset + this.end - this.start) {
        this.offset = 0;
        this.dropPending();
        return true;
      }
      return false;
    }
    if (!current) return false;
    this.rotationSeenAt ??= this.now();
    if (this.now() - this.rotationSeenAt < this.graceMs) return false;
    await this.handle?.close();
    this.handle = await open(this.path, 'r');
    this.ino = (await this.handle.stat()).ino;
    this.offset = 0;
    this.dropPending();
    this.rotationSeenAt = null;
    return true;
  }

  /** Opens where the checkpoint says: the same file, its rotated copy, or a new file from the start. */
  private async openInitial(): Promise<boolean> {
    const resume = this.resumeFrom;
    const live = await statOrNull(this.path);
    let target: string | null = null;
    let offset = 0;
    if (resume && live?.ino === resume.ino) {
      target = this.path;
      offset = live.size < resume.offset ? 0 : resume.offset;
    } else if (resume && (await statOrNull(this.rotatedPath))?.ino === resume.ino) {
      target = this.rotatedPath;
      offset = resume.offset;
    } else if (live) {
      target = this.path;
    }
    if (target === null) return false;
    try {
      this.handle = await open(target, 'r');
    } catch {
      return false;
    }
    this.ino = (await this.handle.stat()).ino;
    this.offset = offset;
    this.dropPending();
    return true;
  }
}

async function statOrNull(path: string) {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}
