// The fleet under faults, measured: a master from source, a real PowerDNS and two agents with their
// own nginx on 127.0.0.2 and 127.0.0.3 (the fault suite's fleet, apps/agent/test/faults/fleet.ts).
//  1. kill -9 of an edge's nginx master, then a config change: time until the edge serves the change
//     (target: at most 10 s); and kill -9 with no change: time until a new nginx master serves.
//  2. failover and recovery: an edge dies (its agent stopped with SIGSTOP, its nginx killed): time
//     until PowerDNS no longer answers its address; SIGCONT: time until it answers it again (the
//     agent restarts nginx) — with the default monitor settings and with 2 s probes.
// Usage: node bench/fleet-faults.ts [trials of 1] [trials of 2 with 2 s probes] [trials of 2 with defaults]
//        (defaults 10 10 3; the default settings take about two and a half minutes a trial)
import { DEFAULT_NODE_MONITOR } from '@rampart/contracts';
import { type EdgeAgent, SITE, startFleet } from '../apps/agent/test/faults/fleet.ts';
import { launchPowerDns } from '../apps/master/src/test/powerdns-server.ts';
import { median } from './support.ts';

const KILL_TRIALS = Number(process.argv[2] ?? 10);
const FAST_TRIALS = Number(process.argv[3] ?? 10);
const DEFAULT_TRIALS = Number(process.argv[4] ?? 3);
const TWO_SECOND_PROBES = { ...DEFAULT_NODE_MONITOR, interval_seconds: 2, timeout_seconds: 1 };

/** Polls `done` every 20 ms; answers the milliseconds from `since` when it first holds. */
async function until(since: number, done: () => Promise<boolean>, limitMs = 600_000): Promise<number> {
  while (performance.now() - since < limitMs) {
    if (await done()) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not done within ${limitMs} ms`);
}

const summary = (name: string, ms: number[], extra: Record<string, unknown> = {}) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const seconds = (value: number) => Number((value / 1000).toFixed(2));
  console.log(
    JSON.stringify({
      measure: name,
      ...extra,
      trials: sorted.length,
      p50_s: seconds(median(sorted)),
      min_s: seconds(sorted[0] ?? 0),
      max_s: seconds(sorted.at(-1) ?? 0),
    }),
  );
};

const fleet = await startFleet(TWO_SECOND_PROBES, launchPowerDns);
try {
  const [a, b] = fleet.edges as [EdgeAgent, EdgeAgent];
  const domains = [SITE];
  const serves = async (edge: EdgeAgent, host: string) => (await fleet.status(edge, host)) === 200;
  const both = [a.ip, b.ip].sort().join(',');
  const dns = async () => (await fleet.dns()).join(',');
  await until(
    performance.now(),
    async () => (await serves(a, SITE)) && (await serves(b, SITE)) && (await dns()) === both,
  );

  // 1. kill -9 of the nginx master.
  const withChange: number[] = [];
  const alone: number[] = [];
  for (let trial = 1; trial <= KILL_TRIALS; trial++) {
    const killed = await a.nginx.pid();
    const started = performance.now();
    process.kill(killed as number, 'SIGKILL');
    const domain = `k${trial}.faults.test`;
    domains.push(domain);
    await fleet.call('PUT', `/v1/sites/${fleet.site.id}`, { domains });
    withChange.push(await until(started, () => serves(a, domain)));
    await until(performance.now(), () => serves(b, domain));
    console.error(`kill -9 then a change, trial ${trial}: ${(withChange.at(-1) ?? 0).toFixed(0)} ms`);

    const master = await a.nginx.pid();
    const alsoStarted = performance.now();
    process.kill(master as number, 'SIGKILL');
    alone.push(
      await until(alsoStarted, async () => {
        const pid = await a.nginx.pid();
        return pid !== null && pid !== master && (await serves(a, domain));
      }),
    );
    console.error(`kill -9 alone, trial ${trial}: ${(alone.at(-1) ?? 0).toFixed(0)} ms`);
  }
  summary('kill -9 of the nginx master, then a config change: the change served', withChange);
  summary('kill -9 of the nginx master, no change: a new nginx master serving', alone);

  // 2. failover and recovery.
  const failover = async (label: string, settings: typeof DEFAULT_NODE_MONITOR, trials: number) => {
    await fleet.call('PUT', '/v1/configs/global-0-node-monitor', settings);
    const out: number[] = [];
    const back: number[] = [];
    for (let trial = 1; trial <= trials; trial++) {
      await until(performance.now(), async () => (await dns()) === both);
      // Die at a random point of the probe cycle, as a real node does.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * settings.interval_seconds * 1000));
      b.pause();
      const died = performance.now();
      await b.killNginx();
      out.push(await until(died, async () => (await dns()) === a.ip));
      const revived = performance.now();
      b.resume();
      back.push(await until(revived, async () => (await dns()) === both));
      console.error(`${label}, trial ${trial}: out ${out.at(-1)?.toFixed(0)} ms, back ${back.at(-1)?.toFixed(0)} ms`);
    }
    const extra = { settings: { ...settings } };
    summary(`${label}: dead edge out of DNS`, out, extra);
    summary(`${label}: edge back in DNS after its agent runs again`, back, extra);
  };
  await failover('2 s probes', TWO_SECOND_PROBES, FAST_TRIALS);
  await failover('default settings', DEFAULT_NODE_MONITOR, DEFAULT_TRIALS);
} finally {
  for (const edge of fleet.edges) edge.resume();
  await fleet.close();
}
