import { type AdminSetup, PERMISSIONS, type Permission, type SetupItemKey } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { holds } from '../../plugins/route-policy.ts';
import { codeChannels } from '../messages/code-channels.ts';
import type { Messenger } from '../messages/messenger.ts';
import { OFFLINE_AFTER_MS } from '../nodes/nodes.repository.ts';
import { readyChannels } from '../payments/payment-settings.ts';
import { loadSettings } from '../settings/settings.service.ts';
import type { UserRow } from '../users/user-row.ts';

/** Each first-run step: the code of its area, the page that sets it up, and whether it is done. */
const STEPS: readonly {
  key: SetupItemKey;
  code: Permission;
  path: string;
  done: (db: Kysely<Database>, messenger: Pick<Messenger, 'transports'>, now: number) => Promise<boolean>;
}[] = [
  {
    key: 'node',
    code: PERMISSIONS.adminNode,
    path: '/node/list',
    done: async (db, _, now) =>
      Boolean(
        await db
          .selectFrom('nodes')
          .select('id')
          .where('last_seen_at', '>=', now - OFFLINE_AFTER_MS)
          .executeTakeFirst(),
      ),
  },
  {
    key: 'line_group',
    code: PERMISSIONS.adminNode,
    path: '/node/line-group',
    done: async (db) => Boolean(await db.selectFrom('node_groups').select('id').executeTakeFirst()),
  },
  {
    key: 'cname_domain',
    code: PERMISSIONS.adminNode,
    path: '/node/dns',
    done: async (db) =>
      Boolean(await db.selectFrom('cname_domains').select('id').where('dnsapi_id', 'is not', null).executeTakeFirst()),
  },
  {
    key: 'package',
    code: PERMISSIONS.adminPackage,
    path: '/package/basic',
    done: async (db) =>
      Boolean(await db.selectFrom('packages').select('id').where('on_sale', '=', 1).executeTakeFirst()),
  },
  {
    key: 'payment',
    code: PERMISSIONS.adminSys,
    path: '/sys/setting?tab=payment',
    done: async (db) => (await readyChannels(db)).length > 0,
  },
  {
    key: 'smtp',
    code: PERMISSIONS.adminSys,
    path: '/sys/setting?tab=smtp',
    done: async (db, messenger) => codeChannels(await loadSettings(db), messenger).email_code,
  },
];

/** GET /v1/admin/setup: each step done or not; null (and not looked at) outside the admin's codes. */
export async function adminSetup(
  db: Kysely<Database>,
  messenger: Pick<Messenger, 'transports'>,
  viewer: UserRow,
  now = Date.now(),
): Promise<AdminSetup> {
  const items = await Promise.all(
    STEPS.map(async (step) => ({
      key: step.key,
      done: holds(viewer, [step.code]) ? await step.done(db, messenger, now) : null,
      path: step.path,
    })),
  );
  return { items };
}
