import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { loadSettings, saveSetting } from '../settings/settings.service.ts';

/** The cluster install token agents register with; made at random the first time it is asked for. */
export async function installToken(db: Kysely<Database>): Promise<string> {
  const current = await currentInstallToken(db);
  return current || rotateInstallToken(db);
}

/** The install token as stored, '' while none was made yet (a check never makes one). */
export async function currentInstallToken(db: Kysely<Database>): Promise<string> {
  return (await loadSettings(db)).cluster_install_token;
}

/** A new install token; the old one stops admitting agents (accepted nodes keep their credentials). */
export async function rotateInstallToken(db: Kysely<Database>): Promise<string> {
  // Hex: a token is typed after `--token` on a command line, where a leading dash reads as an option.
  const token = randomBytes(24).toString('hex');
  await saveSetting(db, 'cluster_install_token', token);
  return token;
}
