import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { clusterBus } from '../cluster/bus.ts';
import { announceConfigVersion } from '../config/config-version.ts';

class DryRun extends Error {}

/**
 * Runs `apply` in one transaction that bumps the config version once; the services it calls run
 * their own changeConfig inside it without a bump of their own (config-version.ts), so agents see
 * one new version with every change. `dryRun`: the same, rolled back (every check meets it as an
 * apply would); answers a null version.
 */
export async function inOneConfigVersion<T>(
  db: Kysely<Database>,
  dryRun: boolean,
  apply: (trx: Transaction<Database>) => Promise<T>,
): Promise<{ version: number | null; result: T | null }> {
  let version = 0;
  let result: T | null = null;
  try {
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('config_state')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('id', '=', 1)
        .returning('version')
        .executeTakeFirstOrThrow();
      version = row.version;
      result = await apply(trx);
      if (dryRun) throw new DryRun();
    });
  } catch (error) {
    if (error instanceof DryRun) return { version: null, result };
    throw error;
  }
  announceConfigVersion(version);
  clusterBus(db).relay({ kind: 'config', version });
  return { version, result };
}
