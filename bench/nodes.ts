import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../apps/master/src/db/schema.ts';
import { hashToken } from '../apps/master/src/modules/auth/tokens.ts';

/** An accepted node written straight into the database: registration is not what the benches measure. Returns its credential. */
export async function insertBenchNode(db: Kysely<Database>, name: string): Promise<string> {
  const credential = randomBytes(24).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('nodes')
    .values({
      name,
      ips: '["127.0.0.1"]',
      group_id: null,
      region_id: null,
      enabled: 1,
      http_port: 80,
      https_port: 443,
      max_cache_size_mb: 1024,
      credential_hash: hashToken(credential),
      applied_version: 0,
      last_seen_at: null,
      last_error: '',
      dropped_log_lines: 0,
      agent_version: 'bench',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return credential;
}
