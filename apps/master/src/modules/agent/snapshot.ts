import { gzipSync } from 'node:zlib';
import type {
  EdgeJob,
  EdgeNodeSettings,
  EdgeSite,
  EdgeStream,
  EdgeUnknownHost,
  SiteSettings,
  StreamSettings,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { liveChallenges } from '../acme/challenges.repository.ts';
import { EDGE_ENFORCEMENT } from '../edge-settings/edge-settings.configs.ts';
import { edgeSettings } from '../edge-settings/edge-settings.service.ts';
import { edgeGeoip } from '../geoip/geoip.service.ts';
import {
  bandwidthCaps,
  enforcementReason,
  siteEnforcement,
  streamEnforcement,
} from '../packages/package-enforcement.ts';
import { edgeProtection } from '../protection/edge-protection.ts';
import { AGENT_MASTERS } from '../settings/agent-masters.ts';
import { readConfig, UNKNOWN_HOST, WAF_DEFAULTS } from '../settings/configs.ts';
import { provedDomainsToServe } from '../sites/domain-proofs.repository.ts';
import { snapshotSites } from '../sites/sites.repository.ts';
import { snapshotStreams } from '../streams/streams.repository.ts';

/**
 * The parts of a snapshot every node shares (sites, streams, certificates, ACME HTTP-01 challenges,
 * what to do with requests no site serves, the masters agents use) are built once per config
 * version, as JSON text and as one gzip member. A node's answer wraps them with its own settings and
 * jobs; gzip allows several members back to back, so those small parts are compressed per call and
 * the large shared part never is.
 */
interface SharedPart {
  version: number;
  json: string;
  gzip: Buffer;
}

/** The part last built, or being built, for each database, with the version it was asked for. */
const cache = new WeakMap<Kysely<Database>, { version: number; part: Promise<SharedPart> }>();

/** Requests no site serves: the admin's choice, inspected with the admin's WAF defaults when both say so. */
async function unknownHost(db: Kysely<Database>): Promise<EdgeUnknownHost> {
  const [settings, waf] = await Promise.all([readConfig(db, UNKNOWN_HOST), readConfig(db, WAF_DEFAULTS)]);
  const inspect = settings.value.action === 'page' && settings.value.waf;
  return {
    action: settings.value.action,
    waf: inspect ? waf.value : { mode: 'off', paranoia: waf.value.paranoia, exclusions: [] },
  };
}

async function buildShared(db: Kysely<Database>, version: number): Promise<SharedPart> {
  const [allSites, streams, challenges, unknown, settings, policy, geoip, masters, proved] = await Promise.all([
    snapshotSites(db),
    snapshotStreams(db),
    liveChallenges(db),
    unknownHost(db),
    edgeSettings(db),
    readConfig(db, EDGE_ENFORCEMENT),
    edgeGeoip(db),
    readConfig(db, AGENT_MASTERS),
    provedDomainsToServe(db),
  ]);
  // While proof is required, a domain not proved by its site's owner is left out: the edges answer it
  // as an unknown host; a site with no proved domain is left out whole.
  const sites = proved
    ? allSites.flatMap((row) => {
        const served = proved.get(row.id);
        if (served === undefined) return [];
        if (served === true) return [row];
        const parsed = JSON.parse(row.settings) as SiteSettings;
        const domains = parsed.domains.filter((domain) => served.includes(domain));
        return [{ ...row, settings: JSON.stringify({ ...parsed, domains }) }];
      })
    : allSites;
  const caps = await bandwidthCaps(
    db,
    sites.flatMap((row) => (row.user_package_id === null ? [] : [row.user_package_id])),
  );
  // Sites of inactive packages stay, with what the operator's policy does to them; their bandwidth
  // cap (bytes/s) is the package's, applied by each node to the site's requests together.
  const siteSettings = sites.map((row): EdgeSite => {
    const enforcement = siteEnforcement(enforcementReason(row), policy.value);
    const cap = row.user_package_id === null ? undefined : caps.get(row.user_package_id);
    return {
      id: row.id,
      ...(JSON.parse(row.settings) as SiteSettings),
      ...(enforcement && { enforcement }),
      ...(cap !== undefined && { bandwidth_bps: cap }),
    };
  });
  const streamSettings = streams.flatMap((row): EdgeStream[] => {
    const enforcement = streamEnforcement(enforcementReason(row), policy.value);
    if (enforcement === null) return [];
    return [{ id: row.id, ...(JSON.parse(row.settings) as StreamSettings), ...(enforcement && { enforcement }) }];
  });
  // Also fills each site's protection (the default rule group where it has none).
  const protection = await edgeProtection(db, siteSettings);
  const certIds = [
    ...new Set(siteSettings.flatMap((site) => (site.https_listen && site.cert_id !== null ? [site.cert_id] : []))),
  ];
  const certs =
    certIds.length === 0
      ? []
      : await db
          .selectFrom('certs')
          .select(['id', 'cert_pem', 'key_pem'])
          .where('id', 'in', certIds)
          // An ACME certificate before its first issuance has no PEM yet.
          .where('cert_pem', '!=', '')
          .orderBy('id')
          .execute();
  // Absent while the list is empty: each agent keeps the masters it has.
  const masterList = masters.value.masters.length > 0 ? `,"masters":${JSON.stringify(masters.value.masters)}` : '';
  const json = `"sites":${JSON.stringify(siteSettings)},"streams":${JSON.stringify(streamSettings)},"certs":${JSON.stringify(certs)},"acme_challenges":${JSON.stringify(challenges)},"protection":${JSON.stringify(protection)},"unknown_host":${JSON.stringify(unknown)},"edge_settings":${JSON.stringify(settings)}${geoip ? `,"geoip":${JSON.stringify(geoip)}` : ''}${masterList}`;
  return { version, json, gzip: gzipSync(json, { level: 6 }) };
}

/**
 * The shared part at `version` (the version the caller just read, so it never goes backwards). A
 * change wakes every held poll in the same moment: the first builds the part and the others wait
 * for that build, which is why the version is checked before waiting, not after (each would
 * otherwise find the older part and build its own: a fleet of 1,000 nodes built it 1,000 times).
 */
export async function sharedPart(db: Kysely<Database>, version: number): Promise<SharedPart> {
  const cached = cache.get(db);
  if (cached && cached.version >= version) {
    const part = await cached.part.catch(() => undefined);
    if (part) return part;
    // That build failed: the first caller back builds again, the others wait for it.
    if (cache.get(db) !== cached) return sharedPart(db, version);
  }
  const building = buildShared(db, version);
  cache.set(db, { version, part: building });
  return building;
}

/** The end of every config answer that carries a snapshot. */
export const ANSWER_SUFFIX = '}}}';

/** The envelope around a snapshot, split so the shared part can sit between prefix and suffix. */
export function answerParts(version: number, node: EdgeNodeSettings, jobs: EdgeJob[]) {
  const prefix = `{"code":0,"msg":"ok","data":{"version":${version},"changed":true,"snapshot":{"version":${version},"node":${JSON.stringify(node)},"jobs":${JSON.stringify(jobs)},`;
  return { prefix, suffix: ANSWER_SUFFIX };
}
