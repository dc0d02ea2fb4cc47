import { Resolver } from 'node:dns/promises';
import type { EdgeAcmeChallenge } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { cnameTarget, defaultCnameDomain } from '../cname/cname.repository.ts';
import { checkCnames } from '../cname/cname-check.ts';
import { changeConfig } from '../config/config-version.ts';
import { waitForNodesAt } from '../nodes/apply-wait.ts';
import { TaskFailure } from '../tasks/task-runner.ts';
import { deleteChallengesOf, insertChallenges } from './challenges.repository.ts';
import { siteServing } from './site-domains.ts';

async function addresses(name: string, server: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (server) resolver.setServers([server]);
  const [v4, v6] = await Promise.all([
    resolver.resolve4(name).catch(() => []),
    resolver.resolve6(name).catch(() => []),
  ]);
  return [...v4, ...v6];
}

async function edgeAddresses(db: Kysely<Database>): Promise<Set<string>> {
  const nodes = await db.selectFrom('nodes').select('ips').where('enabled', '=', 1).execute();
  return new Set(nodes.flatMap((node) => JSON.parse(node.ips) as string[]));
}

/**
 * Before asking the ACME server, checks that each domain reaches the edges: a CNAME to its site's
 * target, or addresses that are all edge addresses (or the target's). Says in plain words when not.
 */
export async function checkDomainsReachEdges(
  db: Kysely<Database>,
  userId: number,
  domains: readonly string[],
  resolverAddress: string,
): Promise<void> {
  const cnameDomain = await defaultCnameDomain(db);
  const edges = await edgeAddresses(db);
  for (const domain of domains) {
    const site = await siteServing(db, userId, domain);
    if (!site) throw new TaskFailure(`${domain} is not a domain of any of your sites, so the edges do not serve it`);
    const target = cnameTarget(site, cnameDomain);
    const [check] = target ? await checkCnames([domain], target, resolverAddress) : [];
    if (check?.points) continue;
    const found = await addresses(domain, resolverAddress);
    const allowed = new Set([...edges, ...(target ? await addresses(target, resolverAddress) : [])]);
    if (found.length > 0 && found.every((address) => allowed.has(address))) continue;
    const where = target ? `the CNAME ${target}` : 'an edge address';
    const why =
      found.length > 0
        ? `it resolves to ${found.join(', ')}, which is not an edge`
        : `it ${check?.reason ?? 'has no address'}`;
    throw new TaskFailure(
      `${domain} does not resolve to ${where} (${why}); point it there, then issue again: HTTP-01 validation reaches the domain through the edges`,
    );
  }
}

/**
 * Hands the challenges to the edges (a config change, so long-polling agents get them at once) and
 * waits until every online edge serves that config. Returns the clean-up.
 */
export async function publishHttpChallenges(
  db: Kysely<Database>,
  taskId: number,
  challenges: readonly EdgeAcmeChallenge[],
  waitSeconds: number,
  signal: AbortSignal,
): Promise<() => Promise<void>> {
  const unpublish = async () => {
    await changeConfig(db, (trx) => deleteChallengesOf(trx, taskId));
  };
  const version = await changeConfig(db, async (trx, next) => {
    await insertChallenges(trx, taskId, challenges, Date.now());
    return next;
  });
  const state = await waitForNodesAt(db, version, waitSeconds * 1000, signal);
  if (state.ok) return unpublish;
  await unpublish();
  if (state.reason === 'no-nodes') {
    throw new TaskFailure('no edge node is online to answer the HTTP-01 challenge; use DNS-01 or bring an edge online');
  }
  throw new TaskFailure(
    `edge node(s) ${state.behind.join(', ')} did not take the HTTP-01 challenge within ${waitSeconds} s; check the nodes page`,
  );
}
