// HTTPS through the edge (the certificate chosen by SNI in Lua) against a hand-written plain nginx
// with the same certificates in its config, the same origin and `ssl_session_cache shared:SSL:10m`:
// kept-alive HTTPS and HTTP/2 (h2load), full handshakes with ECDSA P-256 and RSA 2048 certificates,
// and resumed ones (session tickets, TLS 1.3 and 1.2) (tls-load.c, one request per connection).
// Each with 2 certificates, then 10,000 (full ECDSA handshakes then spread over all of them): the
// edge holds them as routing data, plain nginx as 10,000 server blocks, one certificate each (a
// second plain nginx, started for that half). One worker everywhere; edge and plain alternate for
// the given rounds, each first in every other one, after a second of untimed kept-alive and HTTP/2
// load on each; the workers on core 0, the origin and the clients on core 1; medians of the rates
// and of the nginx worker's CPU time per request.
// Usage: node bench/edge-tls.ts   (BENCH_SECONDS, BENCH_ROUNDS; needs gcc, libssl-dev, h2load)
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { EdgeCert, EdgeSite } from '@rampart/contracts';
import { localRequest } from '../apps/agent/src/local-http.ts';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge, type TestEdge } from '../apps/agent/test/support/edge.ts';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import { cpuSeconds, pinToCore, workersOf } from './nginx-cpu.ts';
import { type NginxFiles, plainNginxFiles, startBenchOrigin, startPlainNginx } from './nginx-process.ts';
import { freePort, median, sidesInTurn, tempDir, until, wrkRounds } from './support.ts';
import { h2load, handshakes, type LoadResult, makeCerts } from './tls-load.ts';

/** One line of the report: medians of the rounds. */
export interface TlsFigure {
  name: string;
  /** Requests (one per handshake where handshakes are measured) a second. */
  edge: number;
  plain: number;
  /** Median of the rounds' edge/plain ratios. */
  ratio: number;
  target: number;
  /** The nginx worker's CPU time per request, µs. */
  edgeCpuUs: number;
  plainCpuUs: number;
  /** The handshake client's CPU seconds per second of the edge's runs (1 = its core is full). */
  clientLoad: number;
}

interface Side {
  name: 'edge' | 'plain';
  port: (kind: 'ec' | 'rsa') => number;
  pidFile: string;
}

interface TlsCase {
  name: string;
  run: (side: Side, seconds: number, many: boolean) => LoadResult;
  /** Measured only with the 10,000 certificates loaded. */
  manyOnly?: boolean;
  /**
   * With 10,000 certificates, each handshake asks for one no handshake to that server asked for
   * before (`cold`): parsed ahead (or at start, by plain nginx), never used yet.
   */
  cold?: boolean;
}

/** Where each server's next run of handshakes to certificates not used yet starts in the names. */
const cold: Record<'edge' | 'plain', number> = { edge: 0, plain: 0 };

const TARGET = 0.9;
const MANY = 10_000;

const CASES: TlsCase[] = [
  {
    name: 'HTTPS kept-alive, ECDSA (h2load --h1 -c32)',
    run: (side, seconds) => h2load(side.port('ec'), 'ecdsa.test', 'h1', seconds),
  },
  {
    name: 'HTTP/2, ECDSA (h2load -c32 -m10)',
    run: (side, seconds) => h2load(side.port('ec'), 'ecdsa.test', 'h2', seconds),
  },
  {
    name: 'full handshakes, ECDSA P-256, TLS 1.3',
    run: (side, seconds, many) =>
      handshakes({
        port: side.port('ec'),
        // With 10,000 certificates each connection asks for one no connection asked for before:
        // each run goes on through the names where that server's last one ended.
        ...(many ? { sni: 's%d.many.test', names: MANY - 2, first: cold[side.name] } : { sni: 'ecdsa.test' }),
        resume: false,
        tls: '1.3',
        seconds,
      }),
    cold: true,
  },
  {
    // Each worker parses a certificate on its first handshake: spread over 200 names, all but the
    // first few hundred handshakes find theirs parsed (the steady state of a busy node).
    name: 'full handshakes, ECDSA P-256, TLS 1.3, SNI over 200 of the certificates',
    run: (side, seconds) =>
      handshakes({ port: side.port('ec'), sni: 's%d.many.test', names: 200, resume: false, tls: '1.3', seconds }),
    manyOnly: true,
  },
  {
    name: 'full handshakes, RSA 2048, TLS 1.3',
    run: (side, seconds) => handshakes({ port: side.port('rsa'), sni: 'rsa.test', resume: false, tls: '1.3', seconds }),
  },
  {
    name: 'resumed handshakes (ticket), ECDSA, TLS 1.3',
    run: (side, seconds) => resumed(side.port('ec'), '1.3', seconds),
  },
  {
    name: 'resumed handshakes, ECDSA, TLS 1.2',
    run: (side, seconds) => resumed(side.port('ec'), '1.2', seconds),
  },
];

function resumed(port: number, tls: '1.2' | '1.3', seconds: number): LoadResult {
  const result = handshakes({ port, sni: 'ecdsa.test', resume: true, tls, seconds });
  // Each client process's first handshake is a full one.
  if ((result.resumed ?? 0) < result.requests * 0.9) {
    throw new Error(`only ${result.resumed} of ${result.requests} handshakes resumed on port ${port}`);
  }
  return result;
}

export interface TlsServers {
  edge: TestEdge;
  sides: { edge: Side; plain: Side };
  /** The plain nginx's config and prefix (for a copy under callgrind). */
  plainFiles: NginxFiles;
  /** Its port for the ECDSA certificate. */
  plainEcPort: number;
  /** The origin's pid file (its workers share core 1 with the clients). */
  originPidFile: string;
  /**
   * Loads 9,998 more sites on the edge, each with a certificate of its own, and starts a plain nginx
   * with the same 10,000 certificates in its config: the sides of the second half.
   */
  loadMany: () => Promise<{ edge: Side; plain: Side }>;
  close: () => Promise<void>;
}

export async function startTlsServers(): Promise<TlsServers> {
  const origin = await startBenchOrigin();
  const [ec] = makeCerts('ec', 'ecdsa.test', 1);
  const [rsa] = makeCerts('rsa', 'rsa.test', 1);
  const files = tempDir('rampart-bench-tls-');
  const pemFile = (name: string, text: string) => {
    const path = join(files, name);
    writeFileSync(path, text);
    return path;
  };
  const ports = { ec: await freePort(), rsa: await freePort() };
  const server = (port: number, pair: { cert: string; key: string }, name: string, serverName = '') => `
    server {
      listen 127.0.0.1:${port} ssl http2;${serverName === '' ? '' : `\n      server_name ${serverName};`}
      ssl_certificate ${pemFile(`${name}.pem`, pair.cert)};
      ssl_certificate_key ${pemFile(`${name}.key`, pair.key)};
      location / { proxy_pass http://origin; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host; }
    }`;
  // As an operator would write it: the protocols the edge serves, a shared session cache, nginx's
  // own session tickets (on by default, keys made at start-up and shared by the workers).
  const common = `    access_log logs/access.log combined buffer=64k flush=1s;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:SSL:10m;
    upstream origin { server 127.0.0.1:${origin.port}; keepalive 64; }`;
  const plain = startPlainNginx(
    'tls-plain',
    `${common}
    ${server(ports.ec, ec!, 'ec')}
    ${server(ports.rsa, rsa!, 'rsa')}`,
  );
  let plainMany: ReturnType<typeof startPlainNginx> | undefined;
  const edge = await createEdge({ proveTimeoutMs: 180_000, waf: false });
  const close = async () => {
    await edge.close();
    plain.stop();
    plainMany?.stop();
    origin.nginx.stop();
    rmSync(files, { recursive: true, force: true });
  };
  const site = (id: number, domain: string, certId: number): EdgeSite =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      https_listen: true,
      cert_id: certId,
      http2: true,
    });
  const cert = (id: number, pair: { cert: string; key: string }): EdgeCert => ({
    id,
    cert_pem: pair.cert,
    key_pem: pair.key,
  });
  const base = { sites: [site(1, 'ecdsa.test', 1), site(2, 'rsa.test', 2)], certs: [cert(1, ec!), cert(2, rsa!)] };
  const apply = async (version: number, parts: typeof base) => {
    const outcome = await edge.applier.apply(edge.snapshot({ version, ...parts }));
    if (!outcome.applied || outcome.errors.length > 0) {
      throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
    }
    for (const host of ['ecdsa.test', 'rsa.test']) {
      const answer = await edgeRequest(edge.ports.https, { host, tls: true });
      if (answer.status !== 200) throw new Error(`${host}: ${answer.status} over HTTPS`);
    }
  };
  try {
    await apply(1, base);
    const sides = {
      edge: { name: 'edge' as const, port: () => edge.ports.https, pidFile: edge.paths.pidFile },
      plain: {
        name: 'plain' as const,
        port: (kind: 'ec' | 'rsa') => ports[kind],
        pidFile: join(plain.dir, 'nginx.pid'),
      },
    };
    const loadMany = async () => {
      const started = performance.now();
      const pairs = makeCerts('ec', 's%d.many.test', MANY - 2);
      await apply(2, {
        sites: [...base.sites, ...pairs.map((_, i) => site(10 + i, `s${i}.many.test`, 10 + i))],
        certs: [...base.certs, ...pairs.map((pair, i) => cert(10 + i, pair))],
      });
      await parsedAhead(edge, MANY, started);
      const answer = await edgeRequest(edge.ports.https, { host: 's7.many.test', tls: true });
      if (answer.cert?.subject?.CN !== 's7.many.test') throw new Error('the edge did not choose s7.many.test by SNI');
      // Plain nginx with the same 10,000 certificates, as an operator would serve 10,000 HTTPS sites:
      // a server block each, chosen by SNI from nginx's server name hash.
      const manyPorts = { ec: await freePort(), rsa: await freePort() };
      plainMany = startPlainNginx(
        'tls-plain-many',
        [
          common,
          '    server_names_hash_max_size 65536;',
          server(manyPorts.ec, ec!, 'ec', 'ecdsa.test'),
          ...pairs.map((pair, i) => server(manyPorts.ec, pair, `many-${i}`, `s${i}.many.test`)),
          server(manyPorts.rsa, rsa!, 'rsa', 'rsa.test'),
        ].join('\n'),
      );
      const manyPlain = await edgeRequest(manyPorts.ec, { host: 's7.many.test', tls: true });
      if (manyPlain.cert?.subject?.CN !== 's7.many.test')
        throw new Error('plain nginx did not choose s7.many.test by SNI');
      return {
        edge: sides.edge,
        plain: {
          name: 'plain' as const,
          port: (kind: 'ec' | 'rsa') => manyPorts[kind],
          pidFile: join(plainMany.dir, 'nginx.pid'),
        },
      };
    };
    return {
      edge,
      sides,
      loadMany,
      close,
      plainFiles: plainNginxFiles(plain),
      plainEcPort: ports.ec,
      originPidFile: join(origin.nginx.dir, 'nginx.pid'),
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Waits until every worker of `edge` holds `count` certificates parsed (tls.lua parses a swap's new
 * ones in the background, as plain nginx parses its config's at start), and says how long it took.
 */
async function parsedAhead(edge: TestEdge, count: number, started: number): Promise<void> {
  const parsedBy = async () => {
    const answer = await localRequest({ port: edge.ports.control, path: '/certs' });
    return (JSON.parse(answer?.body ?? 'null') as { parsed: (number | null)[] } | null)?.parsed ?? [];
  };
  await until(async () => {
    const parsed = await parsedBy();
    return parsed.length > 0 && parsed.every((n) => (n ?? 0) >= count) ? true : undefined;
  }, 120_000).catch(async () => {
    throw new Error(`certificates parsed: ${JSON.stringify(await parsedBy())}`);
  });
  const ms = performance.now() - started;
  console.error(
    `${count.toLocaleString('en')} certificates parsed ahead by every worker ${ms.toFixed(0)} ms after the change was sent (certificates made, swapped in, parsed)`,
  );
}

function measure(
  sides: TlsServers['sides'],
  originPidFile: string,
  seconds: number,
  rounds: number,
  many: boolean,
): TlsFigure[] {
  const workers = { edge: workersOf(sides.edge.pidFile), plain: workersOf(sides.plain.pidFile) };
  // As the proxy bench does: the workers under test on core 0, the origin on core 1 with the
  // clients. Left to the scheduler, a worker that shared its core with h2load read HTTP/2 rows from
  // 0.71 to 1.46 of plain nginx round by round; pinned, 0.89 to 0.97 (its count: 0.935).
  pinToCore([...workers.edge, ...workers.plain], 0);
  pinToCore(workersOf(originPidFile), 1);
  const suffix = many ? `, ${MANY.toLocaleString('en')} certificates on each` : ', edge with 2 certificates';
  // Untimed, both sides alike: a node serving traffic is warm (LuaJIT's traces, the workers' caches),
  // and the kept-alive rows, measured first, read a just-started edge otherwise.
  for (const name of ['edge', 'plain'] as const) {
    for (const protocol of ['h1', 'h2'] as const) h2load(sides[name].port('ec'), 'ecdsa.test', protocol, 1);
  }
  return CASES.filter((tlsCase) => many || !tlsCase.manyOnly).map((tlsCase) => {
    const runs = { edge: [] as number[], plain: [] as number[], edgeCpu: [] as number[], plainCpu: [] as number[] };
    const client: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const rates: Record<'edge' | 'plain', number> = { edge: 0, plain: 0 };
      for (const name of sidesInTurn(round)) {
        const before = cpuSeconds(workers[name]);
        const result = tlsCase.run(sides[name], seconds, many);
        // Client process p takes steps p, p+8, …: the furthest is about 8 times its share.
        if (many && tlsCase.cold) cold[name] += Math.ceil(result.requests * 1.5) + 8;
        const cpuUs = ((cpuSeconds(workers[name]) - before) * 1e6) / result.requests;
        rates[name] = result.requests / result.seconds;
        runs[name].push(rates[name]);
        runs[name === 'edge' ? 'edgeCpu' : 'plainCpu'].push(cpuUs);
        if (name === 'edge') client.push(result.clientCpu / result.seconds);
      }
      ratios.push(rates.edge / rates.plain);
    }
    return {
      name: `${tlsCase.name}${suffix}`,
      edge: median(runs.edge),
      plain: median(runs.plain),
      ratio: median(ratios),
      target: TARGET,
      edgeCpuUs: median(runs.edgeCpu),
      plainCpuUs: median(runs.plainCpu),
      clientLoad: median(client),
    };
  });
}

/** Every TLS figure: 2 certificates on the edge, then 10,000. */
export async function tlsFigures(seconds: number, rounds: number): Promise<TlsFigure[]> {
  const servers = await startTlsServers();
  try {
    const few = measure(servers.sides, servers.originPidFile, seconds, rounds, false);
    const manySides = await servers.loadMany();
    return [...few, ...measure(manySides, servers.originPidFile, seconds, rounds, true)];
  } finally {
    await servers.close();
  }
}

export const tlsLine = (figure: TlsFigure) =>
  `${figure.name}: edge ${figure.edge.toFixed(0)}/s (${figure.edgeCpuUs.toFixed(0)} µs CPU a request), plain nginx ${figure.plain.toFixed(0)}/s (${figure.plainCpuUs.toFixed(0)} µs), ratio ${figure.ratio.toFixed(3)} (target ${figure.target}), CPU ratio plain/edge ${(figure.plainCpuUs / figure.edgeCpuUs).toFixed(3)}${Number.isNaN(figure.clientLoad) ? '' : `, client core ${(figure.clientLoad * 100).toFixed(0)}% busy`}`;

if (import.meta.main) {
  const { seconds, rounds } = wrkRounds();
  const header = `date: ${new Date().toISOString()}  node ${process.version}  ${seconds} s a run, ${rounds} alternating rounds, medians; load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`;
  console.log(header);
  for (const figure of await tlsFigures(seconds, rounds)) console.log(tlsLine(figure));
}
