import { crypto as acmeCrypto } from 'acme-client';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';

export interface AcmeAccount {
  /** PEM */
  key: string;
  /** null until the ACME server has made the account */
  url: string | null;
}

/** The master's ACME account for a directory: its key made on first use and stored sealed. */
export async function accountFor(db: Kysely<Database>, secrets: SecretBox, directoryUrl: string): Promise<AcmeAccount> {
  const find = () =>
    db
      .selectFrom('acme_accounts')
      .select(['account_key', 'account_url'])
      .where('directory_url', '=', directoryUrl)
      .executeTakeFirst();
  let row = await find();
  if (!row) {
    const key = (await acmeCrypto.createPrivateEcdsaKey('P-256')).toString();
    await db
      .insertInto('acme_accounts')
      .values({
        directory_url: directoryUrl,
        account_key: secrets.seal(key),
        account_url: null,
        created_at: Date.now(),
      })
      .onConflict((oc) => oc.column('directory_url').doNothing())
      .execute();
    // Another master may have made one first: everyone uses the stored key.
    row = await find();
  }
  if (!row) throw new Error('the ACME account could not be stored');
  return { key: secrets.open(row.account_key), url: row.account_url };
}

export async function saveAccountUrl(db: Kysely<Database>, directoryUrl: string, accountUrl: string) {
  await db
    .updateTable('acme_accounts')
    .set({ account_url: accountUrl })
    .where('directory_url', '=', directoryUrl)
    .execute();
}
