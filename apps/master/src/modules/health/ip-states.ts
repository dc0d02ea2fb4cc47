import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The node IPs the health checks last found down; every other IP counts as up. */
export async function downIps(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await db.selectFrom('node_ip_states').select('ip').where('state', '=', 'down').execute();
  return new Set(rows.map((row) => row.ip));
}
