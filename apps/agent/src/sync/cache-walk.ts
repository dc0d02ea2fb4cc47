import { open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

const KEY_MARK = Buffer.from('\nKEY: ');
const HEADER_BYTES = 16 * 1024;

/** The cache key stored in the header of an nginx cache file, or null. */
export async function readCacheKey(path: string): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    const start = head.indexOf(KEY_MARK);
    if (start < 0) return null;
    const end = head.indexOf(0x0a, start + KEY_MARK.length);
    if (end < 0) return null;
    return head.subarray(start + KEY_MARK.length, end).toString('utf8');
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

/**
 * Removes every cached entry whose key starts with one of `prefixes` by walking the cache
 * directory (the cache purge module of this nginx has no wildcard purge). Each entry goes through
 * `purgeKey` (the zone's own purge, which drops nginx's entry and its file) when given; an entry it
 * does not know is unlinked, which nginx reads as a miss. Unlinking alone is not enough for an entry
 * nginx knows: a worker holding the file open (open_file_cache) would keep serving it. Returns how
 * many entries were removed.
 */
export async function purgeByPrefix(
  cacheDir: string,
  prefixes: string[],
  purgeKey?: (key: string) => Promise<boolean>,
): Promise<number> {
  if (prefixes.length === 0) return 0;
  let removed = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < 3) await walk(path, depth + 1);
      // Cache files are named by the md5 of their key; anything else (temp files) is left alone.
      else if (entry.isFile() && /^[0-9a-f]{32}$/.test(entry.name)) {
        const key = await readCacheKey(path);
        if (key !== null && prefixes.some((prefix) => key.startsWith(prefix))) {
          if (!(purgeKey && (await purgeKey(key)))) await unlink(path).catch(() => undefined);
          removed++;
        }
      }
    }
  };
  await walk(cacheDir, 0);
  return removed;
}
