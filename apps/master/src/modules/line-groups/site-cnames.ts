import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';
import { cnameTarget } from '../cname/cname.repository.ts';
import { cnameDomainTarget, inPublishTurn } from './publish.ts';

export interface SiteCnameResult {
  /** Sites whose s<id> name now points at their line group's host. */
  published: number;
  /** Why the others were not, one line each ('' when nothing failed). */
  error: string;
}

/**
 * Points each site's CNAME target (s<id>.<default CNAME domain>) at its line group's host (the
 * default line group's for a site without one), through the default CNAME domain's DNS API.
 * `siteIds` limits it to those sites, `groupIds` to the sites answered by those groups. Nothing
 * happens while the default CNAME domain has no DNS API account or no line group has a host.
 */
export function publishSiteCnames(
  db: Kysely<Database>,
  secrets: SecretBox,
  log: FastifyBaseLogger,
  scope: { siteIds?: readonly number[]; groupIds?: readonly number[] } = {},
): Promise<SiteCnameResult> {
  return inPublishTurn(db, () => publishNow(db, secrets, log, scope));
}

async function publishNow(
  db: Kysely<Database>,
  secrets: SecretBox,
  log: FastifyBaseLogger,
  scope: { siteIds?: readonly number[]; groupIds?: readonly number[] },
): Promise<SiteCnameResult> {
  const home = await db
    .selectFrom('cname_domains')
    .select(['id', 'domain', 'dnsapi_id'])
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  if (!home || home.dnsapi_id === null) return { published: 0, error: '' };
  const groups = await db
    .selectFrom('node_groups')
    .leftJoin('cname_domains', 'cname_domains.id', 'node_groups.cname_domain_id')
    .select(['node_groups.id', 'node_groups.host', 'node_groups.is_default', 'cname_domains.domain'])
    .execute();
  const fqdnOf = new Map(
    groups.filter((group) => group.host && group.domain).map((group) => [group.id, `${group.host}.${group.domain}`]),
  );
  const defaultGroup = groups.find((group) => group.is_default === 1)?.id ?? null;
  const groupIds = scope.groupIds;
  const sites = await db
    .selectFrom('sites')
    .select(['id', 'line_group_id'])
    .$if(scope.siteIds !== undefined, (qb) => qb.where('id', 'in', [0, ...(scope.siteIds ?? [])]))
    .$if(groupIds !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('line_group_id', 'in', [0, ...(groupIds ?? [])]),
          ...(defaultGroup !== null && groupIds?.includes(defaultGroup) ? [eb('line_group_id', 'is', null)] : []),
        ]),
      ),
    )
    .orderBy('id')
    .execute();
  if (sites.length === 0) return { published: 0, error: '' };
  const errors: string[] = [];
  let published = 0;
  try {
    const target = await cnameDomainTarget(db, secrets, home.id);
    for (const site of sites) {
      const groupId = site.line_group_id ?? defaultGroup;
      const fqdn = groupId === null ? undefined : fqdnOf.get(groupId);
      if (!fqdn) continue;
      try {
        await target.provider.setCname(target.zone, cnameTarget(site.id, target.domain), fqdn);
        published++;
      } catch (error) {
        errors.push(`site ${site.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } catch (error) {
    errors.push(error instanceof Error ? error.message : String(error));
  }
  if (errors.length > 0) log.warn({ errors: errors.slice(0, 10) }, 'site CNAME publishing failed');
  return { published, error: errors.join('; ').slice(0, 500) };
}
