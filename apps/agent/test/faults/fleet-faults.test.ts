import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, rm, statfs } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../master/src/db/database.ts';
import { startPowerDns } from '../../../master/src/test/powerdns.ts';
import { eventually } from '../support/http.ts';
import { type EdgeAgent, FaultTimes, type Fleet, SITE, startFleet } from './fleet.ts';

// Probes every second, down after two failures, up after two successes: failover in seconds. The
// suite asserts outcomes only; the times it measures go to a file (FaultTimes) for the README table.
const MONITOR = {
  enabled: true,
  probe: 'tcp',
  path: '/',
  expected_status: 200,
  host: '',
  interval_seconds: 1,
  timeout_seconds: 0.5,
  failures: 2,
  successes: 2,
  voters: 'master_and_nodes',
};
/** Whether this machine lets the suite mount a small tmpfs (root with CAP_SYS_ADMIN): a disk that fills up. */
function canMountTmpfs(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-mount-check-'));
  try {
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir]).status !== 0) return false;
    return spawnSync('umount', [dir]).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const SMALL_DISK = canMountTmpfs();

/** Debian's libfaketime (packages faketime, libfaketime): one process tree's clock moved, the machine's left alone. */
const FAKETIME_LIB = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const FAKETIME = existsSync(FAKETIME_LIB);
/**
 * The wall clock 10 minutes ahead; timers (monotonic) run true, as on a real node. The offset is read
 * once and kept: nginx starts its workers with an environment of TZ only, and they keep it by the fork.
 */
const TEN_MINUTES_AHEAD = {
  LD_PRELOAD: FAKETIME_LIB,
  FAKETIME: '+10m',
  FAKETIME_CACHE_DURATION: '86400',
  DONT_FAKE_MONOTONIC: '1',
};

/** Bound of every wait: generous for a busy machine; the figures themselves are measured, not asserted. */
const WITHIN = 45_000;

/**
 * The fleet under faults: a master from source, PowerDNS, two agents with their own nginx on
 * 127.0.0.2 and 127.0.0.3, and a local origin. Each fault is caused for real and its outcome
 * asserted: the edge serves what it served, the newest config goes live once the fault clears, DNS
 * holds the addresses that answer, and the operator can see what happened.
 */
describe('the fleet under faults', () => {
  let fleet: Fleet;
  let a: EdgeAgent;
  let b: EdgeAgent;
  const times = new FaultTimes();
  let changes = 0;
  const domains = [SITE];

  /** A config change: one more domain on the site. Answers the new domain. */
  const change = async () => {
    const domain = `v${++changes}.faults.test`;
    domains.push(domain);
    await fleet.call('PUT', `/v1/sites/${fleet.site.id}`, { domains });
    return domain;
  };
  const serves = async (edge: EdgeAgent, host: string) => expect(await fleet.status(edge, host)).toBe(200);
  const both = () => [a.ip, b.ip].sort();
  /** Times `wait` from `start`. */
  const timed = async (start: number, wait: () => Promise<unknown>) => {
    await wait();
    return Date.now() - start;
  };

  beforeAll(async () => {
    fleet = await startFleet(MONITOR, startPowerDns);
    [a, b] = fleet.edges as [EdgeAgent, EdgeAgent];
    await eventually(async () => {
      await serves(a, SITE);
      await serves(b, SITE);
      expect(await fleet.dns()).toEqual(both());
    }, 60_000);
  }, 120_000);

  afterEach(async () => {
    // Whatever a fault left, the next one starts from a whole fleet.
    a.resume();
    b.resume();
    await fleet.relay.up().catch(() => undefined);
  });

  afterAll(async () => {
    const file = times.write({ monitor: MONITOR, proxy_read_timeout_seconds: 2 });
    console.info(`fault times written to ${file}`);
    await fleet?.close();
  });

  it('nginx master killed: the orphaned workers keep serving, the agent restarts nginx and the newest config goes live', async () => {
    const killed = await a.nginx.pid();
    expect(killed).not.toBeNull();
    const started = Date.now();
    process.kill(killed as number, 'SIGKILL');
    // Its workers, orphaned, still serve the old config.
    await serves(a, SITE);
    const newest = await change();
    times.record(
      'nginx master killed (kill -9)',
      'newest config served again',
      await timed(started, () => eventually(() => serves(a, newest), WITHIN, 50)),
    );
    expect(await a.nginx.pid()).not.toBe(killed);
    expect(await a.nginx.orphans()).toEqual([]);
    await eventually(async () => {
      const node = await fleet.nodeOf(a);
      expect(node.last_error).toMatch(/nginx's master was gone|nginx was not running/);
    }, WITHIN);
    expect(await fleet.dns()).toEqual(both());
  });

  it('nginx workers killed: the nginx master starts new ones and the edge keeps serving', async () => {
    const workers = await b.nginx.workers();
    expect(workers.length).toBeGreaterThan(0);
    const started = Date.now();
    for (const pid of workers) process.kill(pid, 'SIGKILL');
    times.record(
      'nginx workers killed (kill -9)',
      'served again',
      await timed(started, () => eventually(() => serves(b, SITE), WITHIN, 20)),
    );
    // A worker killed a moment ago can still be leaving the process table on a busy machine.
    await eventually(async () => {
      const respawned = await b.nginx.workers();
      expect(respawned.some((pid) => workers.includes(pid))).toBe(false);
    }, WITHIN);
    const newest = await change();
    await eventually(() => serves(b, newest), WITHIN);
    expect(await fleet.dns()).toEqual(both());
  });

  it('agent killed during an apply: nginx serves the proven config, and the restarted agent applies the newest', async () => {
    const trees = new Set(await a.trees());
    const newest = await change();
    // A new tree on disk: the apply is under way (or just done, on a fast machine).
    await eventually(async () => expect((await a.trees()).some((tree) => !trees.has(tree))).toBe(true), WITHIN, 5);
    await a.kill();
    await serves(a, SITE);
    const started = Date.now();
    a.start();
    times.record(
      'agent killed during an apply (kill -9)',
      'newest config served after the agent restarts',
      await timed(started, () => eventually(() => serves(a, newest), WITHIN, 50)),
    );
    await eventually(() => serves(b, newest), WITHIN);
  });

  it('agent hung (SIGSTOP): its nginx keeps serving, the node lags behind on the node list, and catches up once it runs', async () => {
    b.pause();
    const newest = await change();
    await eventually(() => serves(a, newest), WITHIN);
    await serves(b, SITE);
    expect(await fleet.status(b, newest)).not.toBe(200);
    // a reports what it applied after it serves it: the node list shows it once that report is in.
    await eventually(async () => {
      const lagging = await fleet.nodeOf(b);
      expect(lagging.applied_version).toBeLessThan((await fleet.nodeOf(a)).applied_version);
    }, WITHIN);
    // It answers connections, so it stays in DNS.
    expect(await fleet.dns()).toEqual(both());
    const started = Date.now();
    b.resume();
    times.record(
      'agent hung (SIGSTOP), then SIGCONT',
      'newest config served after it runs again',
      await timed(started, () => eventually(() => serves(b, newest), WITHIN, 50)),
    );
  });

  it('master killed during a config change: the edges keep serving, and take the newest config once it is back', async () => {
    const newest = await change();
    await fleet.master.kill();
    await serves(a, SITE);
    await serves(b, SITE);
    const started = Date.now();
    await fleet.master.start();
    times.record(
      'master killed (kill -9) during a config change',
      'newest config served on every edge after the master starts',
      await timed(started, () =>
        eventually(
          async () => {
            await serves(a, newest);
            await serves(b, newest);
          },
          WITHIN,
          50,
        ),
      ),
    );
  });

  it('master killed during a log batch: every line is stored once', async () => {
    const logs = openDatabase({ dataDir: fleet.master.dataDir });
    const rows = async (prefix: string) =>
      Number(
        (
          await logs.logs
            .selectFrom('access_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('uri', 'like', `${prefix}%`)
            .executeTakeFirstOrThrow()
        ).n,
      );
    try {
      const lines = 300;
      for (let i = 0; i < lines; i++) expect(await fleet.status(a, SITE, `/batch/${i}`)).toBe(200);
      await fleet.master.kill();
      const started = Date.now();
      await fleet.master.start();
      times.record(
        'master killed (kill -9) during a log batch',
        'every line stored once after the master starts',
        await timed(started, () => eventually(async () => expect(await rows('/batch/')).toBe(lines), WITHIN, 100)),
      );
      // A line sent after them is stored only after every batch before it: none came twice.
      expect(await fleet.status(a, SITE, '/after-batch')).toBe(200);
      await eventually(async () => expect(await rows('/after-batch')).toBe(1), WITHIN, 100);
      expect(await rows('/batch/')).toBe(lines);
      expect((await fleet.nodeOf(a)).dropped_log_lines).toBe(0);
    } finally {
      await logs.close();
    }
  });

  it.runIf(SMALL_DISK)(
    'spool directory full: the lines wait, the node list shows it, and every line is stored once there is room',
    async () => {
      const spool = join(a.dataDir, 'spool');
      const logs = openDatabase({ dataDir: fleet.master.dataDir });
      const rows = async (prefix: string) =>
        Number(
          (
            await logs.logs
              .selectFrom('access_logs')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('uri', 'like', `${prefix}%`)
              .executeTakeFirstOrThrow()
          ).n,
        );
      let mounted = false;
      try {
        // A small disk of its own, mounted over the empty spool and then filled up by another file.
        await eventually(async () => expect(await readdir(spool)).toEqual([]), WITHIN, 50);
        expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', spool]).status).toBe(0);
        mounted = true;
        const filler = join(spool, 'filler');
        spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k']);
        expect((await statfs(spool)).bavail).toBe(0);
        const lines = 300;
        for (let i = 0; i < lines; i++) expect(await fleet.status(a, SITE, `/spool/${i}`)).toBe(200);
        await eventually(async () => {
          expect((await fleet.nodeOf(a)).last_error).toMatch(/the log spool could not be written .*no space left/i);
        }, WITHIN);
        expect(await rows('/spool/')).toBe(0);
        await serves(a, SITE);
        const started = Date.now();
        await rm(filler);
        times.record(
          'spool directory full (its disk filled by another file)',
          'every line stored once after room is freed',
          await timed(started, () => eventually(async () => expect(await rows('/spool/')).toBe(lines), WITHIN, 100)),
        );
        expect(await fleet.status(a, SITE, '/after-spool')).toBe(200);
        await eventually(async () => expect(await rows('/after-spool')).toBe(1), WITHIN, 100);
        expect(await rows('/spool/')).toBe(lines);
        expect((await fleet.nodeOf(a)).dropped_log_lines).toBe(0);
      } finally {
        await logs.close();
        if (mounted) {
          await eventually(async () => expect(await readdir(spool)).toEqual([]), WITHIN, 50).catch(() => undefined);
          spawnSync('umount', ['-l', spool]);
        }
      }
    },
  );

  it('an edge that dies leaves DNS, and comes back once it answers', async () => {
    await eventually(async () => expect(await fleet.dns()).toEqual(both()), WITHIN);
    b.pause();
    const started = Date.now();
    await b.killNginx();
    times.record(
      'edge dead (agent hung, nginx killed)',
      'its address out of DNS',
      await timed(started, () => eventually(async () => expect(await fleet.dns()).toEqual([a.ip]), WITHIN, 50)),
    );
    const switched = await fleet.call<{ list: { ip: string; to: string; reason: string }[] }>(
      'GET',
      `/v1/log/ip-switch?ip=${b.ip}`,
    );
    expect(switched.list[0]).toMatchObject({ ip: b.ip, to: 'down' });
    const back = Date.now();
    b.resume();
    times.record(
      'edge dead (agent hung, nginx killed)',
      'back in DNS after the agent restarts nginx',
      await timed(back, () => eventually(async () => expect(await fleet.dns()).toEqual(both()), WITHIN, 50)),
    );
    await serves(b, SITE);
  });

  it('PowerDNS down during a failover: the switch is kept and published once PowerDNS is back', async () => {
    await eventually(async () => expect(await fleet.dns()).toEqual(both()), WITHIN);
    await fleet.relay.down();
    b.pause();
    await b.killNginx();
    await eventually(async () => {
      const states = await fleet.call<{ list: { ip: string; state: string }[] }>('GET', '/v1/monitor/node/ip-state');
      expect(states.list.find((entry) => entry.ip === b.ip)?.state).toBe('down');
    }, WITHIN);
    // The switch is decided but cannot be published: PowerDNS still answers with both.
    expect(await fleet.dns()).toEqual(both());
    const started = Date.now();
    await fleet.relay.up();
    times.record(
      'PowerDNS API down during a failover',
      'dead address out of DNS after PowerDNS is back',
      await timed(started, () => eventually(async () => expect(await fleet.dns()).toEqual([a.ip]), WITHIN, 50)),
    );
    b.resume();
    await eventually(async () => expect(await fleet.dns()).toEqual(both()), WITHIN);
  });

  it('an origin that accepts and never answers: 504 within the read timeout, other sites unaffected, the edge stays in DNS', async () => {
    const held = new Set<Socket>();
    const stuck = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => stuck.listen(0, '127.0.0.1', resolve));
    try {
      const port = (stuck.address() as { port: number }).port;
      await fleet.call('POST', '/v1/sites', {
        domains: ['stuck.faults.test'],
        origins: [{ address: '127.0.0.1', port, weight: 1, backup: false }],
      });
      await eventually(async () => expect(await fleet.status(a, 'stuck.faults.test')).not.toBe(404), WITHIN, 200);
      const started = Date.now();
      expect(await fleet.status(a, 'stuck.faults.test', '/slow')).toBe(504);
      times.record('origin accepts and never answers', 'answered 504', Date.now() - started);
      expect(held.size).toBeGreaterThan(0);
      await serves(a, SITE);
      expect(await fleet.dns()).toEqual(both());
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => stuck.close(() => resolve()));
    }
  });

  it('a node clock 10 minutes ahead: it takes the newest config, stays online and in DNS, its lines are stored once with its times, and the node list and a message show the offset', async (context) => {
    context.skip(!FAKETIME, `needs Debian's libfaketime (${FAKETIME_LIB})`);
    const logs = openDatabase({ dataDir: fleet.master.dataDir });
    const lines = async (prefix: string) =>
      logs.logs.selectFrom('access_logs').select('time_ms').where('uri', 'like', `${prefix}%`).execute();
    try {
      // The whole node runs ahead: its agent, and the nginx that agent starts (which writes the log times).
      await a.kill();
      await a.killNginx();
      const started = Date.now();
      a.start(TEN_MINUTES_AHEAD);
      await eventually(() => serves(a, SITE), WITHIN, 50);
      const newest = await change();
      times.record(
        'node clock 10 minutes ahead (agent and nginx under libfaketime)',
        'newest config served after the skewed agent starts',
        await timed(started, () => eventually(() => serves(a, newest), WITHIN, 50)),
      );
      times.record(
        'node clock 10 minutes ahead (agent and nginx under libfaketime)',
        'offset on the node list after the skewed agent starts',
        await timed(started, () =>
          eventually(async () => {
            const offset = (await fleet.nodeOf(a)).clock_offset_seconds;
            expect(offset).toBeGreaterThanOrEqual(595);
            expect(offset).toBeLessThanOrEqual(605);
          }, WITHIN),
        ),
      );
      const messages = await fleet.call<{ list: { type: string; title: string; body: string }[] }>(
        'GET',
        '/v1/messages?type=node_failover&page=1&limit=100',
      );
      const told = messages.list.filter((message) => message.title === `The clock of node edge-${a.ip} is off`);
      expect(told).toHaveLength(1);
      expect(told[0]?.body).toContain('10 minutes ahead of');

      // Its lines: each stored once, with the node's own time (10 minutes ahead of the master's).
      const count = 200;
      for (let i = 0; i < count; i++) expect(await fleet.status(a, SITE, `/clock/${i}`)).toBe(200);
      const sent = Date.now();
      await eventually(async () => expect(await lines('/clock/')).toHaveLength(count), WITHIN, 100);
      expect(await fleet.status(a, SITE, '/after-clock')).toBe(200);
      await eventually(async () => expect(await lines('/after-clock')).toHaveLength(1), WITHIN, 100);
      expect(await lines('/clock/')).toHaveLength(count);
      for (const line of await lines('/clock/')) expect(Number(line.time_ms) - sent).toBeGreaterThan(9 * 60_000);
      expect((await fleet.nodeOf(a)).dropped_log_lines).toBe(0);

      // The master judges liveness by its own clock: online, and in DNS while it answers.
      await eventually(async () => expect(await fleet.dns()).toEqual(both()), WITHIN);
      const node = await fleet.nodeOf(a);
      expect(node.status).toBe('online');
      expect(Math.abs(Date.parse(node.last_seen_at ?? '') - Date.now())).toBeLessThan(60_000);
      await serves(a, SITE);
      expect(await fleet.dns()).toEqual(both());
      // Still one message: it is told once.
      const again = await fleet.call<{ list: { title: string }[] }>(
        'GET',
        '/v1/messages?type=node_failover&page=1&limit=100',
      );
      expect(again.list.filter((message) => message.title === told[0]?.title)).toHaveLength(1);

      // A ban of 5 minutes, ended by the master's clock, holds on a node 10 minutes ahead (the agent
      // moves its end to the node's clock), and lifting it opens the site again.
      const sites = await fleet.call<{ list: { id: number }[] }>('GET', `/v1/sites?domain=${SITE}`);
      const siteId = sites.list[0]?.id ?? 0;
      await fleet.call('POST', '/v1/monitor/site/blackip', { site_id: siteId, cidr: '127.0.0.1/32', seconds: 300 });
      await eventually(async () => expect(await fleet.status(a, SITE, '/banned')).toBe(403), WITHIN, 100);
      await fleet.call('DELETE', '/v1/monitor/site/blackip', { site_id: siteId, ip: '127.0.0.1/32' });
      await eventually(async () => expect(await fleet.status(a, SITE, '/unbanned')).toBe(200), WITHIN, 100);
    } finally {
      await logs.close();
      // The node's clock set right again: the offset goes back under the threshold.
      await a.kill();
      await a.killNginx();
      a.start();
      await eventually(async () => {
        const offset = (await fleet.nodeOf(a)).clock_offset_seconds;
        expect(Math.abs(offset ?? 99)).toBeLessThanOrEqual(5);
      }, WITHIN);
    }
  });

  it('after every fault: the newest config is live on both edges and both are in DNS', async () => {
    const newest = await change();
    await eventually(async () => {
      await serves(a, newest);
      await serves(b, newest);
      expect(await fleet.dns()).toEqual(both());
    }, WITHIN);
    await eventually(async () => {
      const nodes = await fleet.nodes();
      expect(nodes.map((node) => node.status)).toEqual(['online', 'online']);
      expect(new Set(nodes.map((node) => node.applied_version)).size).toBe(1);
    }, WITHIN);
  });
});
