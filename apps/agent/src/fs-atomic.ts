import { randomBytes } from 'node:crypto';
import { type FileHandle, open, readFile, rename, rm } from 'node:fs/promises';

/**
 * Writes a file so that readers (and a restart after kill -9) see either the old or the new content.
 * `content` may come in parts, written one after the other without being joined into one more copy.
 */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array | readonly Uint8Array[],
  mode = 0o644,
): Promise<void> {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', mode);
  try {
    if (typeof content === 'string' || content instanceof Uint8Array) await handle.writeFile(content);
    else await writeParts(handle, content);
    await handle.chmod(mode);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, path);
}

async function writeParts(handle: FileHandle, parts: readonly Uint8Array[]): Promise<void> {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const { bytesWritten } = await handle.writev(parts);
  // A short write (a full disk gives an error, not this, in practice): the rest, as writeFile would.
  if (bytesWritten < total) await handle.writeFile(Buffer.concat(parts).subarray(bytesWritten));
}

/** Parsed JSON from `path`, or null when the file does not exist. */
export async function readJsonFile(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The hex key in `path`, made (32 random bytes, 0600) when the file does not exist yet. */
export async function readOrCreateKey(path: string): Promise<string> {
  try {
    const existing = (await readFile(path, 'utf8')).trim();
    if (/^[0-9a-f]{64}$/.test(existing)) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32).toString('hex');
  await writeFileAtomic(path, `${key}\n`, 0o600);
  return key;
}
