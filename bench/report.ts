// Every headline figure the README quotes, measured on this machine in one go, each against its
// baseline from the same run and its target, in one table: a release is checked with one command.
// Each bench runs as its own process (as anyone would run it), and its figures are read from what
// it prints. Rates swing on a busy machine: read the CPU and instruction figures beside them.
// Usage: npm run bench   (BENCH_SECONDS, BENCH_ROUNDS: passed to the benches; BENCH_ONLY=proxy,waf
// runs only the named benches; needs what each bench needs: wrk, h2load, nginx, chromium, valgrind)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support.ts';

/** One figure of the table: read from a bench's output, compared with its target. */
interface Figure {
  name: string;
  /** Finds the figure in the bench's output; its groups feed `read`. */
  pattern: RegExp;
  read: (match: RegExpMatchArray) => { result: string; baseline?: string; value: number };
  target: string;
  /** Whether the value meets the target. */
  met: (value: number) => boolean;
}

interface Bench {
  name: string;
  script: string;
  env?: Record<string, string>;
  figures: Figure[];
  /** Figures a bench prints one a line, in a shape of their own (TLS cases, stream cases). */
  eachLine?: {
    pattern: RegExp;
    read: (match: RegExpMatchArray) => Omit<ReportRow, 'bench' | 'status'>;
    met: (value: number) => boolean;
  };
}

/** `name: edge X/s (Y µs CPU a unit), plain nginx A/s (B µs), ratio R (target T), CPU ratio plain/edge C`. */
const EDGE_PLAIN_LINE =
  /^([^:\n]+): edge (\d+)\/s \(([\d.]+) µs CPU a (\w+)\), plain nginx (\d+)\/s \(([\d.]+) µs\), ratio ([\d.]+) \(target ([\d.]+)\), CPU ratio plain\/edge ([\d.]+)/gm;
const edgePlainRow = (m: RegExpMatchArray) => ({
  figure: `${m[1]} (CPU a ${m[4]})`,
  result: `${m[2]}/s, ${m[3]} µs (rate ratio ${m[7]})`,
  baseline: `plain nginx ${m[5]}/s, ${m[6]} µs`,
  value: String(n(m[9])),
  target: `≥ ${m[8]}`,
});

/** `label: edge N (units…), plain nginx M (units): plain/edge R` (bench/*-instructions.ts). */
const INSTRUCTION_LINE = /^([^:\n]+): edge ([\d,]+) \(\d+[^)]*\), plain nginx ([\d,]+) \(\d+\): plain\/edge ([\d.]+)/gm;
const instructionRow = (m: RegExpMatchArray) => ({
  figure: `${m[1]} (instructions, informative)`,
  result: `${m[2]} instructions`,
  baseline: `plain nginx ${m[3]}`,
  value: String(n(m[4])),
  target: '(read beside the CPU row)',
});
/** Counted, not timed: shown beside the rows they explain, with no target of their own. */
const informative = () => true;

const n = (text: string | undefined) => Number((text ?? '').replaceAll(',', ''));
const atLeast = (target: number) => (value: number) => value >= target;
const atMost = (target: number) => (value: number) => value <= target;

export const BENCHES: Bench[] = [
  {
    name: 'proxy',
    script: 'edge-proxy.ts',
    figures: [
      {
        name: 'proxied request, cache off (rate)',
        pattern:
          /edge (\d+) req\/s, ([\d.]+) µs CPU a request.*?plain nginx (\d+) req\/s, ([\d.]+) µs.*?ratio by rate ([\d.]+)/,
        read: (m) => ({ result: `${m[1]} req/s`, baseline: `plain nginx ${m[3]} req/s`, value: n(m[5]) }),
        target: '≥ 0.95',
        met: atLeast(0.95),
      },
      {
        name: 'proxied request, cache off (CPU a request)',
        pattern:
          /edge \d+ req\/s, ([\d.]+) µs CPU a request.*?plain nginx \d+ req\/s, ([\d.]+) µs.*?by CPU a request ([\d.]+)/,
        read: (m) => ({ result: `${m[1]} µs`, baseline: `plain nginx ${m[2]} µs`, value: n(m[3]) }),
        target: '≥ 0.95',
        met: atLeast(0.95),
      },
    ],
  },
  {
    name: 'tls',
    script: 'edge-tls.ts',
    figures: [],
    eachLine: { pattern: EDGE_PLAIN_LINE, read: edgePlainRow, met: atLeast(0.9) },
  },
  {
    name: 'tls-instructions',
    script: 'tls-instructions.ts',
    figures: [],
    eachLine: { pattern: INSTRUCTION_LINE, read: instructionRow, met: informative },
  },
  {
    name: 'stream',
    script: 'edge-stream.ts',
    figures: [],
    eachLine: { pattern: EDGE_PLAIN_LINE, read: edgePlainRow, met: atLeast(0.95) },
  },
  {
    name: 'stream-instructions',
    script: 'stream-instructions.ts',
    figures: [],
    eachLine: { pattern: INSTRUCTION_LINE, read: instructionRow, met: informative },
  },
  {
    name: 'cache',
    script: 'edge-cache.ts',
    figures: [
      {
        name: 'cache hit, site without protection',
        pattern: /edge, site without protection: (\d+) req\/s, ([\d.]+) µs CPU a request; ratio ([\d.]+)/,
        read: (m) => ({ result: `${m[1]} req/s, ${m[2]} µs`, baseline: 'nginx from disk', value: n(m[3]) }),
        target: '≥ 0.85',
        met: atLeast(0.85),
      },
      {
        name: 'cache hit, ACL (1,000 CIDRs) + 5 CC rules',
        pattern: /edge, site with ACL[^:]*: (\d+) req\/s, ([\d.]+) µs CPU a request; ratio ([\d.]+)/,
        read: (m) => ({ result: `${m[1]} req/s, ${m[2]} µs`, baseline: 'nginx from disk', value: n(m[3]) }),
        target: '≥ 0.80',
        met: atLeast(0.8),
      },
    ],
  },
  {
    name: 'protection',
    script: 'protection.ts',
    figures: [
      {
        name: 'protection on (ACL + CC rules), benign request (rate)',
        pattern:
          /protection on[^:]*: (\d+) req\/s, p99 [\d.]+ ms, [\d.]+ µs.*?off: (\d+) req\/s.*?ratio ([\d.]+) by rate/,
        read: (m) => ({ result: `${m[1]} req/s`, baseline: `protection off ${m[2]} req/s`, value: n(m[3]) }),
        target: '≥ 0.90',
        met: atLeast(0.9),
      },
      {
        name: 'protection on (ACL + CC rules), benign request (CPU a request)',
        pattern:
          /protection on[^:]*: \d+ req\/s, p99 [\d.]+ ms, ([\d.]+) µs.*?off: \d+ req\/s, p99 [\d.]+ ms, ([\d.]+) µs.*?([\d.]+) by CPU a request/,
        read: (m) => ({ result: `${m[1]} µs`, baseline: `protection off ${m[2]} µs`, value: n(m[3]) }),
        target: '≥ 0.90',
        met: atLeast(0.9),
      },
    ],
  },
  {
    name: 'waf',
    script: 'waf.ts',
    figures: [
      {
        name: 'WAF site, 80 % static / 20 % dynamic (CPU a request)',
        pattern:
          /80 % static \/ 20 % dynamic: edge WAF site (\d+) req\/s.*?stock ModSecurity (\d+) req\/s.*?([\d.]+)x by rate, ([\d.]+)x by CPU/,
        read: (m) => ({
          result: `${m[1]} req/s (${m[3]}× by rate)`,
          baseline: `stock ModSecurity ${m[2]} req/s`,
          value: n(m[4]),
        }),
        target: '≥ 5×',
        met: atLeast(5),
      },
      {
        name: 'WAF site, dynamic requests (CPU a request)',
        pattern:
          /dynamic only: edge WAF site (\d+) req\/s.*?stock ModSecurity (\d+) req\/s.*?([\d.]+)x by rate, ([\d.]+)x by CPU/,
        read: (m) => ({
          result: `${m[1]} req/s (${m[3]}× by rate)`,
          baseline: `stock ModSecurity ${m[2]} req/s`,
          value: n(m[4]),
        }),
        target: '≥ 1.5×',
        met: atLeast(1.5),
      },
    ],
  },
  {
    name: 'change',
    script: 'edge-change.ts',
    env: { BENCH_CHANGES: '20' },
    figures: [
      {
        name: 'change → served, 10,000 more sites, idle (p95)',
        pattern: /10,?000 more sites, idle: p50 (\d+) ms, p95 (\d+) ms/,
        read: (m) => ({ result: `p50 ${m[1]} ms, p95 ${m[2]} ms`, value: n(m[2]) }),
        target: 'p95 < 1,000 ms',
        met: atMost(1000),
      },
    ],
  },
  {
    name: 'log-shipping',
    script: 'log-shipping.ts',
    env: { BENCH_SHIPPING: 'both' },
    figures: (['sqlite', 'clickhouse'] as const).flatMap((store): Figure[] => [
      {
        name: `log shipping, ${store}, nginx line → stored row, the agent running`,
        pattern: new RegExp(
          `log shipping \\(${store}\\): (\\d+) lines .*? at (\\d+) lines/s \\(steady state.*?raw bulk insert (\\d+) lines/s; ratio ([\\d.]+)`,
        ),
        read: (m) => ({
          result: `${m[2]} lines/s (${m[1]} lines)`,
          baseline: `raw bulk insert ${m[3]} lines/s`,
          value: n(m[4]),
        }),
        target: '≥ 0.5',
        met: atLeast(0.5),
      },
      {
        name: `log shipping, ${store}, the same by CPU (agent + master${store === 'clickhouse' ? ' + ClickHouse' : ''})`,
        pattern: new RegExp(
          `log shipping \\(${store}\\):[^\\n]*?\\(steady state[^\\n]*?CPU ratio raw / shipping ([\\d.]+)`,
        ),
        read: (m) => ({ result: `CPU ratio ${m[1]}`, baseline: 'raw bulk insert CPU', value: n(m[1]) }),
        target: '≥ 0.5',
        met: atLeast(0.5),
      },
      {
        name: `log shipping, ${store}, the agent's process start included (informative)`,
        pattern: new RegExp(
          `log shipping \\(${store}\\): (\\d+) lines .*? at (\\d+) lines/s \\(agent start included.*?raw bulk insert (\\d+) lines/s; ratio ([\\d.]+)`,
        ),
        read: (m) => ({
          result: `${m[2]} lines/s (${m[1]} lines)`,
          baseline: `raw bulk insert ${m[3]} lines/s`,
          value: n(m[4]),
        }),
        target: '(a start, not shipping)',
        met: () => true,
      },
    ]),
  },
  {
    name: 'api',
    // CPU a request, read from /proc for the server process alone: req/s shares the two cores with
    // wrk and swings by a fifth from run to run on a busy machine (bench/master.ts still gives it).
    script: 'signed-in-profile.ts',
    env: { BENCH_PATH: '/v1/user' },
    figures: [
      {
        name: 'GET /v1/user, signed in (CPU a request)',
        pattern:
          /bare Fastify route: (\d+) req\/s, ([\d.]+) µs[^\n]*\nGET \/v1\/user: (\d+) req\/s \(ratio ([\d.]+)\), ([\d.]+) µs server CPU a request \(ratio ([\d.]+)\)/,
        read: (m) => ({
          result: `${m[3]} req/s, ${m[5]} µs (req/s ratio ${m[4]})`,
          baseline: `bare Fastify route: ${m[1]} req/s, ${m[2]} µs`,
          value: n(m[6]),
        }),
        target: '≥ 0.6',
        met: atLeast(0.6),
      },
    ],
  },
  {
    name: 'api-list',
    script: 'signed-in-profile.ts',
    env: { BENCH_SITES: '100000', BENCH_PATH: '/v1/sites?page=1&limit=20' },
    figures: [
      {
        name: 'GET /v1/sites, page 1 of 20, 100,000 sites, signed in (CPU a request)',
        pattern:
          /raw SQL route, same page: (\d+) req\/s, ([\d.]+) µs server CPU a request; GET \S+ against it: req\/s ratio ([\d.]+), CPU ratio ([\d.]+)\n[\s\S]*?GET \/v1\/sites\S*: (\d+) req\/s [^,]*, ([\d.]+) µs/,
        read: (m) => ({
          result: `${m[5]} req/s, ${m[6]} µs (req/s ratio ${m[3]})`,
          baseline: `raw-SQL route, same page: ${m[1]} req/s, ${m[2]} µs`,
          value: n(m[4]),
        }),
        target: '≥ 0.6',
        met: atLeast(0.6),
      },
    ],
  },
  {
    name: 'dashboard',
    script: 'dashboard-size.ts',
    figures: [
      {
        name: 'dashboard, login route JavaScript',
        pattern: /login route JS: ([\d.]+) kB gzip in (\d+) files/,
        read: (m) => ({ result: `${m[1]} kB gzip in ${m[2]} files`, value: n(m[1]) }),
        target: '≤ 150 kB',
        met: atMost(150),
      },
      {
        name: 'dashboard, shell + admin-home JavaScript of the first screen',
        pattern:
          /shell \+ admin-home JS: ([\d.]+) kB gzip in (\d+) files.*\n.*\n.*the first screen[^:]*: ([\d.]+) kB in (\d+) files/,
        read: (m) => ({ result: `${m[3]} kB gzip in ${m[4]} files (${m[1]} kB in all)`, value: n(m[3]) }),
        target: '≤ 300 kB',
        met: atMost(300),
      },
      {
        name: 'dashboard, first contentful paint (signed in, user remembered)',
        pattern: /bare Vite React page: (\d+) ms[\s\S]*?signed-in user stored: (\d+) ms, ratio ([\d.]+)/,
        read: (m) => ({ result: `${m[2]} ms`, baseline: `bare Vite React page ${m[1]} ms`, value: n(m[3]) }),
        target: '≤ 3×',
        met: atMost(3),
      },
      {
        name: 'dashboard, first contentful paint (token only, after the session check)',
        pattern: /bare Vite React page: (\d+) ms[\s\S]*?token only[^:]*: (\d+) ms, ratio ([\d.]+)/,
        read: (m) => ({ result: `${m[2]} ms`, baseline: `bare Vite React page ${m[1]} ms`, value: n(m[3]) }),
        target: '≤ 3×',
        met: atMost(3),
      },
    ],
  },
  {
    name: 'fleet',
    script: 'fleet.ts',
    figures: [
      {
        name: 'change → 1,000 agents acknowledged (p95)',
        pattern: /change → all (\d+) agents acknowledged: p50 (\d+) ms, p95 (\d+) ms/,
        read: (m) => ({ result: `p50 ${m[2]} ms, p95 ${m[3]} ms (${m[1]} agents)`, value: n(m[3]) }),
        target: 'p95 ≤ 2,000 ms',
        met: atMost(2000),
      },
    ],
  },
];

export interface ReportRow {
  bench: string;
  figure: string;
  result: string;
  baseline: string;
  value: string;
  target: string;
  status: 'met' | 'MISSED' | 'not found';
}

/** Reads a bench's figures from its output; a figure the output lacks is reported, not guessed. */
export function readFigures(bench: Bench, output: string): ReportRow[] {
  const each = bench.eachLine;
  const lines = each
    ? [...output.matchAll(each.pattern)].map((match): ReportRow => {
        const row = each.read(match);
        return { bench: bench.name, ...row, status: each.met(Number(row.value)) ? 'met' : 'MISSED' };
      })
    : [];
  if (each && lines.length === 0) {
    lines.push({
      bench: bench.name,
      figure: 'every case',
      result: '',
      baseline: '',
      value: '',
      target: '',
      status: 'not found',
    });
  }
  return [
    ...lines,
    ...bench.figures.map((figure): ReportRow => {
      const match = output.match(figure.pattern);
      if (!match) {
        return {
          bench: bench.name,
          figure: figure.name,
          result: '',
          baseline: '',
          value: '',
          target: figure.target,
          status: 'not found',
        };
      }
      const { result, baseline, value } = figure.read(match);
      return {
        bench: bench.name,
        figure: figure.name,
        result,
        baseline: baseline ?? '',
        value: String(value),
        target: figure.target,
        status: figure.met(value) ? 'met' : 'MISSED',
      };
    }),
  ];
}

function runBench(bench: Bench): string {
  try {
    return execFileSync(process.execPath, [join(ROOT, 'bench', bench.script)], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...bench.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    const why = (failed.stderr ?? String(error)).split('\n').slice(-5).join(' ');
    // Its rows read "not found": say why where the report is read, not only with BENCH_VERBOSE.
    console.error(`${bench.name} failed: ${why}`);
    return `${failed.stdout ?? ''}\nbench failed: ${why}`;
  }
}

if (import.meta.main) {
  const only = process.env.BENCH_ONLY?.split(',');
  const rows: ReportRow[] = [];
  for (const bench of BENCHES) {
    if (only && !only.includes(bench.name)) continue;
    const started = performance.now();
    const output = runBench(bench);
    console.error(`${bench.name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    if (process.env.BENCH_VERBOSE) console.error(output);
    rows.push(...readFigures(bench, output));
  }
  console.log(`date: ${new Date().toISOString()}  load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  console.log('| bench | figure | result | baseline | ratio or value | target | status |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.bench} | ${row.figure} | ${row.result} | ${row.baseline} | ${row.value} | ${row.target} | ${row.status} |`,
    );
  }
}
