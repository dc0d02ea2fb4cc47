import { createReadStream, existsSync } from 'node:fs';
import { MAX_BUNDLE_BYTES } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { deleteBlob, writeBlob } from '../blobs/blob-store.ts';
import { agentBundleName } from './agent-upgrades.service.ts';
import { agentBundlePath } from './bundle-store.ts';

export interface ImportLog {
  info(text: string): void;
  warn(context: object, text: string): void;
}

/**
 * Agent releases received before the blob store kept their bundle in the data directory of the
 * master that received them, which a migration cannot read. At its start each master moves the ones
 * it holds into the blob store (checked against the release's sha256), so that from then on every
 * master serves them. The files stay: a master put back to the release before would read them.
 * Answers how many it moved.
 */
export async function importLegacyReleases(
  db: Kysely<Database>,
  dataDir: string,
  log: ImportLog,
  signal?: AbortSignal,
) {
  const releases = await db
    .selectFrom('agent_releases')
    .select(['id', 'version', 'sha256'])
    .where('blob_id', 'is', null)
    .orderBy('id')
    .execute();
  let moved = 0;
  for (const release of releases) {
    const file = agentBundlePath(dataDir, release.id);
    if (signal?.aborted || !existsSync(file)) continue;
    try {
      const blob = await writeBlob(
        db,
        {
          kind: 'agent-bundle',
          name: agentBundleName(release.version),
          sha256: release.sha256,
          maxBytes: MAX_BUNDLE_BYTES,
        },
        createReadStream(file),
      );
      const kept = await db
        .updateTable('agent_releases')
        .set({ blob_id: blob.id })
        .where('id', '=', release.id)
        .where('blob_id', 'is', null)
        .executeTakeFirst();
      // Another master that held the same file was first.
      if (Number(kept.numUpdatedRows) === 0) await deleteBlob(db, blob.id);
      else moved++;
    } catch (error) {
      log.warn(
        { err: error, release: release.id },
        `agent release ${release.version}: ${file} not moved into the database`,
      );
    }
  }
  if (moved > 0) log.info(`${moved} agent release bundles moved from ${dataDir} into the database`);
  return moved;
}
