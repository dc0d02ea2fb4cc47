import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';

export class SecretKeyMismatchError extends Error {
  override name = 'SecretKeyMismatchError';
}

// Where the proof lives: the configs table, in a scope no settings reader looks at.
const CHECK = { scope_name: 'master', scope_id: 0, type: 'master', name: 'secret_key_check' } as const;
const PLAIN = 'rampart secret key check';

/**
 * Every master on one database must seal and open secrets (DNS API keys, SMTP and payment
 * credentials) with the same key. The first master to start seals a known text into the database;
 * every later start opens it, and a master whose key cannot is stopped before it writes anything
 * sealed that the others could not read.
 */
export async function checkSecretKey(db: Kysely<Database>, secrets: SecretBox, now = Date.now()): Promise<void> {
  await db
    .insertInto('configs')
    .values({ ...CHECK, value: JSON.stringify(secrets.seal(PLAIN)), updated_at: now })
    .onConflict((oc) => oc.columns(['scope_name', 'scope_id', 'type', 'name']).doNothing())
    .execute();
  const row = await db
    .selectFrom('configs')
    .select('value')
    .where('scope_name', '=', CHECK.scope_name)
    .where('scope_id', '=', CHECK.scope_id)
    .where('type', '=', CHECK.type)
    .where('name', '=', CHECK.name)
    .executeTakeFirstOrThrow();
  let opened: string | null = null;
  try {
    opened = secrets.open(JSON.parse(row.value) as string);
  } catch {
    opened = null;
  }
  if (opened !== PLAIN) {
    throw new SecretKeyMismatchError(
      "this master's secret key is not the one the database's secrets were sealed with: every master on one database needs the same RAMPART_SECRET_KEY (base64 of 32 bytes; the first master's is in its <data>/secret.key when it was not given)",
    );
  }
}
