import { isIP } from 'node:net';
import { type AccessLogLine, parseBlockReason } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type EdgeBanSeen, insertEdgeBans } from './bans.repository.ts';

// RuleLine's default ban_seconds.
const DEFAULT_BAN_SECONDS = 600;

/** The edge writes how long it banned in the detail: `120 requests in 60 s, banned 600 s`. */
const bannedSeconds = (detail: string) => {
  const seconds = /banned ([0-9]{1,7}) s$/.exec(detail)?.[1];
  return seconds === undefined ? undefined : Number(seconds);
};

/** How long the line of the group bans, for a detail without it. */
async function lineBanSeconds(db: Kysely<Database>, groupIds: readonly number[]) {
  const seconds = new Map<string, number>();
  if (groupIds.length === 0) return seconds;
  const rows = await db
    .selectFrom('cc_rule_lines')
    .select(['group_id', 'match_id', 'filter_id', 'ban_seconds'])
    .where('group_id', 'in', groupIds)
    .where('action', '=', 'ban')
    .execute();
  for (const row of rows) seconds.set(`${row.group_id}:${row.match_id}:${row.filter_id}`, row.ban_seconds);
  return seconds;
}

/**
 * Bans the node set on its own (block_reason action=ban), as they arrive in its access log batch:
 * each runs from the logged request for the rule's ban_seconds. Called for every batch, stored once.
 */
export async function recordEdgeBans(db: Kysely<Database>, nodeId: number, lines: readonly AccessLogLine[]) {
  const seen = lines.flatMap((line) => {
    if (!line.block_reason.includes('action=ban') || line.site_id < 1 || isIP(line.client_ip) === 0) return [];
    const reason = parseBlockReason(line.block_reason);
    return reason?.action === 'ban' ? [{ line, reason }] : [];
  });
  if (seen.length === 0) return;
  const lookup = await lineBanSeconds(db, [...new Set(seen.map(({ reason }) => reason.group).filter((id) => id > 0))]);
  const bans: EdgeBanSeen[] = seen.map(({ line, reason }) => {
    const createdAt = Math.round(line.time * 1000);
    const seconds =
      bannedSeconds(reason.detail) ??
      lookup.get(`${reason.group}:${reason.match}:${reason.filter}`) ??
      DEFAULT_BAN_SECONDS;
    return {
      nodeId,
      siteId: line.site_id,
      ip: line.client_ip.toLowerCase(),
      reason: reason.detail,
      groupId: reason.group,
      matchId: reason.match,
      filterId: reason.filter,
      createdAt,
      expiresAt: createdAt + seconds * 1000,
    };
  });
  await insertEdgeBans(db, bans);
}
