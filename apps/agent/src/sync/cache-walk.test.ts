import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { purgeByPrefix, readCacheKey } from './cache-walk.ts';

/** A file laid out like an nginx cache entry (binary header, KEY line, then the response). */
async function cacheEntry(root: string, key: string): Promise<string> {
  const name = createHash('md5').update(key).digest('hex');
  const dir = join(root, name.slice(-1), name.slice(-3, -1));
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  const header = Buffer.alloc(48, 1);
  await writeFile(path, Buffer.concat([header, Buffer.from(`\nKEY: ${key}\nHTTP/1.1 200 OK\r\n\r\nbody`)]));
  return path;
}

describe('cache directory purge', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'rampart-cache-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads the key of a cache file', async () => {
    const path = await cacheEntry(root, '3|a.test/x?y=1');
    expect(await readCacheKey(path)).toBe('3|a.test/x?y=1');
    expect(await readCacheKey(join(root, 'missing'))).toBeNull();
  });

  it('removes exactly the entries under the prefixes', async () => {
    await cacheEntry(root, '3|a.test/static/a.js');
    await cacheEntry(root, '3|a.test/static/sub/b.js?v=1');
    await cacheEntry(root, '3|a.test/staticx');
    await cacheEntry(root, '4|a.test/static/a.js');
    await writeFile(join(root, 'not-a-cache-file.0000000001'), 'x');
    expect(await purgeByPrefix(root, ['3|a.test/static/'])).toBe(2);
    const left: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) await walk(join(dir, entry.name));
        else left.push((await readCacheKey(join(dir, entry.name))) ?? entry.name);
      }
    };
    await walk(root);
    expect(left.sort()).toEqual(['3|a.test/staticx', '4|a.test/static/a.js', 'not-a-cache-file.0000000001']);
  });

  it('copes with a cache directory that does not exist yet', async () => {
    expect(await purgeByPrefix(join(root, 'nope'), ['x'])).toBe(0);
  });
});
