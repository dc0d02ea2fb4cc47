import type { AclEntry, CreateAclBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { changeConfig } from '../config/config-version.ts';
import { checkAclFeatures } from '../packages/site-features.ts';
import { findSite } from '../sites/sites.repository.ts';
import type { Owner } from '../tenancy.ts';
import { aclOfSite, deleteAcl, findAcl, insertAcl, presentAcl, updateAcl } from './acls.repository.ts';
import { checkCondition } from './conditions.ts';

const checkEntries = (entries: readonly AclEntry[]) => {
  for (const [index, entry] of entries.entries()) checkCondition(entry.condition, `entries/${index}/condition`);
};

const unique = (error: unknown) => /unique|duplicate key/i.test(String(error));

/** One ACL per site, on a site of the caller's. */
export async function createAcl(db: Kysely<Database>, owner: Owner, body: CreateAclBody) {
  const site = await findSite(db, owner, body.site_id);
  if (!site) throw invalidParam('site_id', `site ${body.site_id} does not exist`);
  checkEntries(body.entries);
  // Country and network conditions are a package feature.
  await checkAclFeatures(db, site.id, body.entries);
  const taken = await aclOfSite(db, site.id);
  const exists = () => new AppError('conflict', `site_id: site ${site.id} already has an ACL; change that one`);
  if (taken) throw exists();
  try {
    return presentAcl(await changeConfig(db, (trx) => insertAcl(trx, site, body.entries, Date.now())));
  } catch (error) {
    if (unique(error)) throw exists();
    throw error;
  }
}

export async function editAcl(db: Kysely<Database>, owner: Owner, id: number, entries: readonly AclEntry[]) {
  const row = await findAcl(db, owner, id);
  if (!row) throw new AppError('not_found', `ACL ${id} does not exist`);
  checkEntries(entries);
  await checkAclFeatures(db, row.site_id, entries);
  return presentAcl(await changeConfig(db, (trx) => updateAcl(trx, id, entries, Date.now())));
}

export async function removeAcl(db: Kysely<Database>, owner: Owner, id: number) {
  const row = await findAcl(db, owner, id);
  if (!row) throw new AppError('not_found', `ACL ${id} does not exist`);
  await changeConfig(db, (trx) => deleteAcl(trx, id));
}
