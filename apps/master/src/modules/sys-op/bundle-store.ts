import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_BUNDLE_BYTES } from '@rampart/contracts';
import { AppError } from '../../errors.ts';

/** Where the master keeps release bundles: file names are made from ids, never from what a caller sends. */
export const bundleDir = (dataDir: string, kind: 'agent' | 'master') => join(dataDir, 'releases', kind);
export const agentBundlePath = (dataDir: string, releaseId: number) =>
  join(bundleDir(dataDir, 'agent'), `${releaseId}.tar.gz`);

/**
 * Streams an uploaded bundle into `target`, hashing it on the way; refused (and nothing kept) when
 * it is empty, larger than MAX_BUNDLE_BYTES, or its sha256 is not the one the admin gave.
 */
export async function receiveBundle(body: unknown, target: string, expectedSha256: string): Promise<number> {
  if (!body || typeof (body as Readable).pipe !== 'function') {
    throw new AppError('invalid_param', 'body: the release bundle, sent as application/octet-stream');
  }
  await mkdir(join(target, '..'), { recursive: true });
  const temp = `${target}.part`;
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      body as Readable,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > MAX_BUNDLE_BYTES)
            throw new AppError('invalid_param', `body: larger than ${MAX_BUNDLE_BYTES} bytes`);
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(temp, { mode: 0o600 }),
    );
    if (size === 0) throw new AppError('invalid_param', 'body: the release bundle is empty');
    const actual = hash.digest('hex');
    if (actual !== expectedSha256) {
      throw new AppError('invalid_param', `sha256: the bundle received has sha256 ${actual}`);
    }
    await rename(temp, target);
    return size;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
