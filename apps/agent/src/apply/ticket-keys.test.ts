import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ensureTicketKeys,
  rotateTicketKeysIfDue,
  TICKET_KEY_BYTES,
  TICKET_ROTATE_MS,
  type TicketKeyFiles,
  ticketKeyFiles,
} from './ticket-keys.ts';

let dataDir: string;
let files: TicketKeyFiles;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'rampart-tickets-'));
  files = ticketKeyFiles(dataDir);
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('ticket keys', () => {
  it('makes a current and a previous key of 80 random bytes, readable by the owner only', async () => {
    expect(await ensureTicketKeys(files)).toBe(true);
    const current = await readFile(files.current);
    const previous = await readFile(files.previous);
    expect(current.length).toBe(TICKET_KEY_BYTES);
    expect(previous.length).toBe(TICKET_KEY_BYTES);
    expect(current.equals(previous)).toBe(false);
    expect(await mode(files.current)).toBe(0o600);
    expect(await mode(files.previous)).toBe(0o600);
    expect(await mode(join(files.current, '..'))).toBe(0o700);
  });

  it('keeps keys that are there', async () => {
    await ensureTicketKeys(files);
    const current = await readFile(files.current);
    expect(await ensureTicketKeys(files)).toBe(false);
    expect((await readFile(files.current)).equals(current)).toBe(true);
  });

  it('replaces a key file of the wrong size', async () => {
    await ensureTicketKeys(files);
    await writeFile(files.current, 'short');
    expect(await ensureTicketKeys(files)).toBe(true);
    expect((await readFile(files.current)).length).toBe(TICKET_KEY_BYTES);
  });

  it('leaves young keys alone and does not reload', async () => {
    await ensureTicketKeys(files);
    const reload = vi.fn(async () => true);
    expect(await rotateTicketKeysIfDue(files, { reload })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('rotates a key older than the period: the current one becomes the previous one, then nginx reloads', async () => {
    await ensureTicketKeys(files);
    const old = await readFile(files.current);
    const past = new Date(Date.now() - TICKET_ROTATE_MS - 60_000);
    await utimes(files.current, past, past);
    const reload = vi.fn(async () => {
      // nginx reads both files whole when it reloads.
      expect((await readFile(files.previous)).equals(old)).toBe(true);
      expect((await readFile(files.current)).length).toBe(TICKET_KEY_BYTES);
    });
    expect(await rotateTicketKeysIfDue(files, { reload })).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    const current = await readFile(files.current);
    expect(current.equals(old)).toBe(false);
    expect((await readFile(files.previous)).equals(old)).toBe(true);
    expect(await mode(files.current)).toBe(0o600);
    expect(await mode(files.previous)).toBe(0o600);
    // Fresh again: the next check does nothing.
    expect(await rotateTicketKeysIfDue(files, { reload })).toBe(false);
  });

  it('makes missing keys on a rotation check and reloads so nginx reads them', async () => {
    const reload = vi.fn(async () => true);
    expect(await rotateTicketKeysIfDue(files, { reload })).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect((await readFile(files.current)).length).toBe(TICKET_KEY_BYTES);
  });
});
