import { Resolver } from 'node:dns/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';
import { providerOf } from '../dnsapis/dnsapis.service.ts';
import { zoneOf } from '../dnsapis/providers.ts';
import { TaskFailure } from '../tasks/task-runner.ts';

export interface DnsChallenge {
  domain: string;
  /** The TXT value: base64url(SHA-256(key authorization)). */
  value: string;
}

/** `_acme-challenge.<domain>`: a wildcard and its base name share one record name (RFC 8555 §8.4). */
export const recordName = (domain: string) => `_acme-challenge.${domain.replace(/^\*\./, '')}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The servers to ask whether a record shows: the configured resolver, else the zone's own name servers. */
async function serversFor(zone: string, configured: string): Promise<string[]> {
  if (configured) return [configured];
  const system = new Resolver({ timeout: 2000, tries: 2 });
  const names = await system.resolveNs(zone).catch(() => []);
  const addresses = (await Promise.all(names.map((name) => system.resolve4(name).catch(() => [])))).flat();
  return addresses.length > 0 ? addresses : system.getServers();
}

async function txtShows(name: string, values: readonly string[], servers: readonly string[]): Promise<boolean> {
  for (const server of servers) {
    const resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([server]);
    const found = (await resolver.resolveTxt(name).catch(() => [])).map((chunks) => chunks.join(''));
    if (!values.every((value) => found.includes(value))) return false;
  }
  return true;
}

/**
 * Makes the `_acme-challenge` TXT records through the certificate's DNS API and waits until DNS
 * answers with them. Returns the clean-up, which removes only the values it added.
 */
export async function publishDnsChallenges(
  db: Kysely<Database>,
  secrets: SecretBox,
  cert: { user_id: number; dnsapi_id: number | null },
  challenges: readonly DnsChallenge[],
  settings: { dns_resolver: string; acme_dns_wait_seconds: number },
  signal: AbortSignal,
): Promise<() => Promise<void>> {
  const row =
    cert.dnsapi_id === null
      ? undefined
      : await db
          .selectFrom('dnsapis')
          .selectAll()
          .where('id', '=', cert.dnsapi_id)
          .where('user_id', '=', cert.user_id)
          .executeTakeFirst();
  if (!row) throw new TaskFailure('the DNS API of this certificate no longer exists; choose another and issue again');
  const provider = await providerOf(db, secrets, row);
  const zones = await provider.listZones();
  const records = new Map<string, { zone: string; values: string[] }>();
  for (const { domain, value } of challenges) {
    const zone = zoneOf(domain, zones);
    if (!zone) throw new TaskFailure(`no zone of the DNS API "${row.name}" holds ${domain}`);
    const name = recordName(domain);
    const entry = records.get(name) ?? { zone, values: [] };
    entry.values.push(value);
    records.set(name, entry);
  }
  const added: [string, { zone: string; values: string[] }][] = [];
  const unpublish = async () => {
    for (const [name, { zone, values }] of added) await provider.removeTxt(zone, name, values);
  };
  try {
    for (const [name, entry] of records) {
      added.push([name, entry]);
      await provider.addTxt(entry.zone, name, entry.values);
    }
    const deadline = Date.now() + settings.acme_dns_wait_seconds * 1000;
    for (const [name, { zone, values }] of records) {
      const servers = await serversFor(zone, settings.dns_resolver);
      while (!(await txtShows(name, values, servers))) {
        if (signal.aborted) throw new TaskFailure('the master is stopping');
        if (Date.now() >= deadline) {
          throw new TaskFailure(
            `the TXT record ${name} did not show in DNS within ${settings.acme_dns_wait_seconds} s (asked ${servers.join(', ')}); check that the DNS API's zone is the one the domain is delegated to`,
          );
        }
        await sleep(1000);
      }
    }
    return unpublish;
  } catch (error) {
    await unpublish().catch(() => undefined);
    throw error;
  }
}
