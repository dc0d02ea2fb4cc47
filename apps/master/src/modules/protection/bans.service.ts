import type { CreateBanBody, LiftBanBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { changeConfig } from '../config/config-version.ts';
import { findSite } from '../sites/sites.repository.ts';
import type { Owner } from '../tenancy.ts';
import { currentBansOf, liftBans, presentBan, upsertManualBan } from './bans.repository.ts';
import { cidrProblem } from './conditions.ts';

/** Site 0 (every site) is an admin's; any other site must be the caller's. */
async function checkSite(db: Kysely<Database>, owner: Owner, siteId: number) {
  if (siteId === 0) {
    if (owner.kind !== 'admin') throw new AppError('forbidden', 'site_id: only an administrator bans on every site');
    return;
  }
  if (!(await findSite(db, owner, siteId))) throw invalidParam('site_id', `site ${siteId} does not exist`);
}

/** Addresses are compared as text: IPv6 in lowercase. */
const normalized = (field: string, cidr: string) => {
  const problem = cidrProblem(cidr);
  if (problem) throw invalidParam(field, problem);
  return cidr.toLowerCase();
};

/** Edges get a new ban with the next config version, at once. */
export async function addBan(db: Kysely<Database>, owner: Owner, body: CreateBanBody) {
  const cidr = normalized('cidr', body.cidr);
  await checkSite(db, owner, body.site_id);
  const now = Date.now();
  const ban = {
    siteId: body.site_id,
    cidr,
    reason: body.reason ?? '',
    createdBy: owner.userId,
    expiresAt: now + body.seconds * 1000,
  };
  return presentBan(await changeConfig(db, (trx) => upsertManualBan(trx, ban, now)));
}

/**
 * Lifts the current bans of the address on the site: a manual ban leaves the snapshot; an edge ban
 * becomes an unban in the snapshot, so the nodes that set it drop it.
 */
export async function liftBan(db: Kysely<Database>, owner: Owner, body: LiftBanBody) {
  const ip = normalized('ip', body.ip);
  await checkSite(db, owner, body.site_id);
  const now = Date.now();
  const bans = await currentBansOf(db, body.site_id, ip, now);
  if (bans.length === 0) throw new AppError('not_found', `${ip} is not banned on site ${body.site_id}`);
  await changeConfig(db, (trx) =>
    liftBans(
      trx,
      bans.map((ban) => ban.id),
      now,
    ),
  );
}
