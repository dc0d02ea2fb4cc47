import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_BUNDLE_BYTES } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { type BlobKind, BlobRefused, writeBlob } from '../blobs/blob-store.ts';

/** Where a master unpacks releases on its own host: directory names are made from ids, never from what a caller sends. */
export const bundleDir = (dataDir: string, kind: 'agent' | 'master') => join(dataDir, 'releases', kind);
/** Where agent bundles were kept before the blob store; only read to import them (legacy-releases.ts). */
export const agentBundlePath = (dataDir: string, releaseId: number) =>
  join(bundleDir(dataDir, 'agent'), `${releaseId}.tar.gz`);

const REFUSALS: Record<BlobRefused['reason'], (error: BlobRefused) => string> = {
  empty: () => 'body: the release bundle is empty',
  too_large: () => `body: larger than ${MAX_BUNDLE_BYTES} bytes`,
  sha256: (error) => `sha256: the bundle received has sha256 ${error.actual}`,
};

/**
 * Streams an uploaded bundle into the blob store, hashing it on the way; refused (and nothing kept)
 * when it is empty, larger than MAX_BUNDLE_BYTES, or its sha256 is not the one the admin gave.
 */
export async function receiveBundle(
  db: Kysely<Database>,
  body: unknown,
  bundle: { kind: Extract<BlobKind, 'agent-bundle' | 'master-bundle'>; name: string; sha256: string },
) {
  if (!body || typeof (body as Readable).pipe !== 'function') {
    throw new AppError('invalid_param', 'body: the release bundle, sent as application/octet-stream');
  }
  try {
    return await writeBlob(db, { ...bundle, maxBytes: MAX_BUNDLE_BYTES }, body as Readable);
  } catch (error) {
    if (error instanceof BlobRefused) throw new AppError('invalid_param', REFUSALS[error.reason](error));
    throw error;
  }
}
