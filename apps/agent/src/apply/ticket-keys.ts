import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Session ticket keys of this node's nginx (`ssl_session_ticket_key`): the current one encrypts new
 * tickets, the previous one still decrypts those it gave out, so a rotation never costs a client its
 * session. Files, not Lua: OpenSSL's ticket key callback is not reachable from lua-resty-core, and
 * keys read by the master are shared by every worker and survive reloads.
 */
export interface TicketKeyFiles {
  current: string;
  previous: string;
}

/** 16 bytes of key name, 32 of HMAC-SHA256 key, 32 of AES-256 key: the size nginx reads as AES-256. */
export const TICKET_KEY_BYTES = 80;

/** Twice a day: a stolen key opens at most a day of recorded sessions (current + previous). */
export const TICKET_ROTATE_MS = 12 * 3600 * 1000;

export function ticketKeyFiles(dataDir: string): TicketKeyFiles {
  const dir = join(dataDir, 'tls');
  return { current: join(dir, 'ticket-current.key'), previous: join(dir, 'ticket-previous.key') };
}

/** Makes both keys when either is missing or not a key (a first start, a wiped directory). Returns whether it did. */
export async function ensureTicketKeys(files: TicketKeyFiles): Promise<boolean> {
  if ((await isKey(files.current)) && (await isKey(files.previous))) return false;
  await mkdir(join(files.current, '..'), { recursive: true, mode: 0o700 });
  await writeKey(files.previous, randomBytes(TICKET_KEY_BYTES));
  await writeKey(files.current, randomBytes(TICKET_KEY_BYTES));
  return true;
}

/**
 * When the current key is older than `maxAgeMs` (or missing): it becomes the previous one, a new one
 * replaces it, and nginx is reloaded to read both. Returns whether it rotated.
 */
export async function rotateTicketKeysIfDue(
  files: TicketKeyFiles,
  options: { maxAgeMs?: number; now?: number; reload: () => Promise<unknown> },
): Promise<boolean> {
  const maxAge = options.maxAgeMs ?? TICKET_ROTATE_MS;
  const now = options.now ?? Date.now();
  if (await ensureTicketKeys(files)) {
    await options.reload();
    return true;
  }
  const written = (await stat(files.current)).mtimeMs;
  if (now - written < maxAge) return false;
  // Each file is replaced by a rename: a reload meanwhile (an apply) always finds both whole.
  await writeKey(files.previous, await readFile(files.current));
  await writeKey(files.current, randomBytes(TICKET_KEY_BYTES));
  await options.reload();
  return true;
}

async function isKey(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    return info.isFile() && info.size === TICKET_KEY_BYTES;
  } catch {
    return false;
  }
}

/** Written beside its place with mode 0600 from the start, then renamed over it. */
async function writeKey(path: string, key: Buffer): Promise<void> {
  const temp = `${path}.new`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(key);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}
