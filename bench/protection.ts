// Protection figures, each against a baseline measured in the same run:
//  1. requests/s, p99 and the edge workers' CPU time a request with a realistic rule set on (an ACL
//     of 1,000 CIDR ranges and a group of 5 CC rules the benign requests pass) vs the same edge, same
//     origin, protection off; wrk -t1 -c32, alternating rounds; the ratios are the medians of each
//     round's (the CPU a request moves far less with the machine's load than the rate);
//  2. a flood from one address (wrk, 127.0.0.1) against a rate rule that bans: the share of flood
//     requests answered by the ban path (403 without reaching the origin), and the success rate of a
//     legitimate client on another address (127.0.0.2) at about 4 requests/s (under the limit) meanwhile.
// Usage: node bench/protection.ts   (needs wrk and Debian's nginx with the Rampart modules)
import { request } from 'node:http';
import type { EdgeProtection, EdgeRuleGroup, SiteProtection } from '@rampart/contracts';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import { cpuSeconds, workersOf } from './nginx-cpu.ts';
import { startBenchOrigin } from './nginx-process.ts';
import { blocklistAcl, line, protection, realisticRules } from './protection-rules.ts';
import { median, wrk, wrkInBackground, wrkRounds } from './support.ts';

const { seconds: SECONDS, rounds: ROUNDS, header } = wrkRounds();
const report: string[] = [header];

const { port: originPort, nginx: origin } = await startBenchOrigin();

const flood: EdgeRuleGroup = {
  id: 2,
  rules: [
    line(
      6,
      [{ field: 'path', op: 'prefix', values: ['/'], negate: false }],
      {
        name: 'flood',
        type: 'rate',
        requests: 50,
        seconds: 10,
        per: 'ip',
      },
      'ban',
    ),
  ],
};

const edgeProtection: EdgeProtection = {
  rule_groups: [realisticRules(1), flood],
  acls: [blocklistAcl(2)],
  bans: [],
  unbans: [],
};

const edge = await createEdge({ proveTimeoutMs: 60_000 });
try {
  const site = (id: number, domain: string, guard: SiteProtection | undefined) =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: originPort, weight: 1, backup: false }],
      ...(guard ? { protection: guard } : {}),
    });
  const outcome = await edge.applier.apply(
    edge.snapshot({
      version: 1,
      sites: [
        site(1, 'off.test', undefined),
        site(2, 'on.test', protection({ rule_group_id: 1 })),
        site(3, 'flood.test', protection({ rule_group_id: 2 })),
      ],
      protection: edgeProtection,
    }),
  );
  if (!outcome.applied || outcome.errors.length > 0) {
    throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
  }
  const url = `http://127.0.0.1:${edge.ports.http}/page?id=1`;
  const host = (name: string) => `wrk.headers["Host"] = "${name}"; wrk.headers["User-Agent"] = "Mozilla/5.0 bench"`;

  const workers = workersOf(edge.paths.pidFile);
  const measure = (name: string) => {
    const before = cpuSeconds(workers);
    const result = wrk(url, { seconds: SECONDS, connections: 32, lua: host(name) });
    return { ...result, cpu: ((cpuSeconds(workers) - before) * 1e6) / result.requests };
  };
  const rounds = Array.from({ length: ROUNDS }, () => ({ off: measure('off.test'), on: measure('on.test') }));
  const mid = (pick: (round: (typeof rounds)[number]) => number) => median(rounds.map(pick));
  const [off, on, offP99, onP99] = [
    mid((r) => r.off.requestsPerSecond),
    mid((r) => r.on.requestsPerSecond),
    mid((r) => r.off.p99Ms),
    mid((r) => r.on.p99Ms),
  ];
  const [offCpu, onCpu] = [mid((r) => r.off.cpu), mid((r) => r.on.cpu)];
  const byRate = mid((r) => r.on.requestsPerSecond / r.off.requestsPerSecond);
  const byCpu = mid((r) => r.off.cpu / r.on.cpu);
  report.push(
    `protection on (ACL of 1,000 CIDRs + 5 CC rules): ${on.toFixed(0)} req/s, p99 ${onP99.toFixed(2)} ms, ${onCpu.toFixed(1)} µs CPU a request; off: ${off.toFixed(0)} req/s, p99 ${offP99.toFixed(2)} ms, ${offCpu.toFixed(1)} µs CPU a request; ratio ${byRate.toFixed(3)} by rate, ${byCpu.toFixed(3)} by CPU a request; p99 added ${(onP99 - offP99).toFixed(2)} ms`,
  );

  // Flood from 127.0.0.1 while a legitimate client on 127.0.0.2 asks about 4 times a second.
  let legitOk = 0;
  let legitAll = 0;
  let flooding = true;
  const legit = (async () => {
    while (flooding) {
      legitAll++;
      const status = await new Promise<number>((resolve) => {
        const req = request(
          {
            host: '127.0.0.1',
            localAddress: '127.0.0.2',
            port: edge.ports.http,
            path: '/',
            headers: { host: 'flood.test' },
            agent: false,
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', () => resolve(0));
        req.end();
      });
      if (status === 200) legitOk++;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const floodRun = await wrkInBackground(url, {
    seconds: SECONDS,
    connections: 32,
    lua: host('flood.test'),
    allowFailures: true,
  });
  flooding = false;
  await legit;
  report.push(
    `flood from one address: ${floodRun.requests} requests at ${floodRun.requestsPerSecond.toFixed(0)} req/s, ${floodRun.failed} answered by the ban path (${((100 * floodRun.failed) / floodRun.requests).toFixed(2)} %); legitimate client on another address: ${legitOk}/${legitAll} succeeded (${((100 * legitOk) / Math.max(1, legitAll)).toFixed(1)} %)`,
  );
} finally {
  await edge.close();
  origin.stop();
}
console.log(report.join('\n'));
