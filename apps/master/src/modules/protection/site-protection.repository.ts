import { DEFAULT_SITE_PROTECTION, type SiteProtection, type SiteSettings } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ownedBy, usableOwners } from './cc-owner.ts';

/** A site's protection: sites saved before protection existed have the default. */
export const protectionOf = (settings: Pick<SiteSettings, 'protection'>): SiteProtection =>
  settings.protection ?? DEFAULT_SITE_PROTECTION;

const CHUNK = 50;

/**
 * Sites whose rule_group_id or attack_rule_group_id is one of `groupIds`. The settings text is
 * searched first (both keys end in `rule_group_id"`), then each candidate is confirmed parsed.
 */
export async function sitesUsingGroups(db: Kysely<Database>, groupIds: readonly number[]) {
  const wanted = new Set(groupIds);
  const found = new Map<number, { id: number; name: string; groupIds: number[] }>();
  for (let i = 0; i < groupIds.length; i += CHUNK) {
    const chunk = groupIds.slice(i, i + CHUNK);
    const rows = await db
      .selectFrom('sites')
      .select(['id', 'name', 'settings'])
      .where((eb) =>
        eb.or(
          chunk.flatMap((id) => [
            eb('settings', 'like', `%rule_group_id":${id},%`),
            eb('settings', 'like', `%rule_group_id":${id}}%`),
          ]),
        ),
      )
      .execute();
    for (const row of rows) {
      const protection = protectionOf(JSON.parse(row.settings) as SiteSettings);
      const groupIds = [protection.rule_group_id, protection.attack_rule_group_id].filter(
        (id): id is number => id !== null && wanted.has(id),
      );
      if (groupIds.length > 0) found.set(row.id, { id: row.id, name: row.name, groupIds });
    }
  }
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/** Whether the group exists and a site of `userId` may use it (the user's own or a system group). */
export async function groupUsableBy(db: Kysely<Database>, groupId: number, userId: number) {
  const row = await db
    .selectFrom('cc_rule_groups')
    .select('id')
    .where('id', '=', groupId)
    .where(ownedBy('user_id', usableOwners(userId)))
    .executeTakeFirst();
  return row !== undefined;
}
