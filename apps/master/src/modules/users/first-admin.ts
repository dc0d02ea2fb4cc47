import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_ADMIN_PERMISSIONS } from '@rampart/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashPassword } from '../auth/passwords.ts';
import { seedSystemConfig } from '../settings/settings.repository.ts';
import { countUsers, insertUser } from './users.repository.ts';

export const FIRST_ADMIN_ACCOUNT = 'admin';

/**
 * On an empty database, creates the first admin. Its password is RAMPART_ADMIN_PASSWORD, or a random
 * one printed once and written to `<data>/initial-admin-password` (mode 0600).
 */
export async function ensureFirstAdmin(
  db: Kysely<Database>,
  options: { password: string | undefined; dataDir: string; log: FastifyBaseLogger },
): Promise<void> {
  if ((await countUsers(db)) > 0) return;
  const password = options.password ?? randomBytes(12).toString('base64url');
  try {
    await insertUser(
      db,
      {
        username: FIRST_ADMIN_ACCOUNT,
        passwordHash: await hashPassword(password),
        type: 1,
        access: ALL_ADMIN_PERMISSIONS,
        name: 'Administrator',
      },
      Date.now(),
    );
  } catch (error) {
    // Several masters starting on one empty database: one of them made the admin first.
    if ((await countUsers(db)) > 0) return;
    throw error;
  }
  // A new installation requires proof of domain ownership from the start; one that predates the
  // setting keeps it off (its live sites must not disappear). A value stored already stays.
  await seedSystemConfig(db, 'domains', { domain_proof: true }, Date.now());
  if (options.password) {
    options.log.info({ account: FIRST_ADMIN_ACCOUNT }, 'first admin created with RAMPART_ADMIN_PASSWORD');
    return;
  }
  const file = join(options.dataDir, 'initial-admin-password');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  // Printed once, on purpose: this is the only time the generated password exists outside that file.
  process.stdout.write(
    `\nFirst admin created. account: ${FIRST_ADMIN_ACCOUNT}  password: ${password}\n(also in ${file})\n\n`,
  );
}
