// The OWASP CRS regression corpus (ftw YAML: each test sends one or more requests and expects rule ids
// to be logged or not, a status, an error) against the edge's WAF site in detect mode and against the
// stock hand-written nginx + ModSecurity + CRS proxy, both at paranoia 4 with the corpus's settings
// (rule 910000 off, UTF-8 validation on, argument lengths 100/400), as the CRS project runs it.
// A test passes when every stage does; "logged" means a message of that rule in the transaction's
// audit entry (found by the client port of the test's connection), the JSON twin of the error log.
// Requests are built as go-ftw builds them; `Host: localhost` is sent as a site's name (to both).
// The edge's site inspects static files too: this counts what the engine detects, not what skips it.
// Usage: BENCH_CRS_TESTS=/path/to/coreruleset-3.3.4/tests/regression/tests node bench/waf-corpus.ts
//   Without BENCH_CRS_TESTS the CRS v3.3.4 release archive is downloaded from GitHub (never committed
//   here); where GitHub is out of reach, any copy of the tag will do: from a clone or mirror of
//   coreruleset/coreruleset, `git archive v3.3.4 tests | tar -x -C <dir>` gives <dir>/tests/regression/tests;
//   BENCH_CRS_PARANOIA sets another level than 4 (1 checks the rules a paranoia-1 tree leaves out);
//   BENCH_CRS_STATIC=skip gives the site the defaults for static files (their plain requests skip the
//   engine, as on a site that does not inspect them) instead of inspecting them;
//   BENCH_CORPUS_FAILURES=1 prints each failed test and why. Needs Debian's nginx with the Rampart
//   modules, ModSecurity and the CRS.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_SITE_PROTECTION } from '@rampart/contracts';
import { parse } from 'yaml';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import { startBenchOrigin, startPlainNginx, stockModSecurityConf } from './nginx-process.ts';
import { freePort, tempDir } from './support.ts';

const CRS_RELEASE = 'https://github.com/coreruleset/coreruleset/archive/refs/tags/v3.3.4.tar.gz';
const CRS_SETUP = process.env.RAMPART_CRS_SETUP ?? '/etc/modsecurity/crs/crs-setup.conf';
const CRS_RULES = process.env.RAMPART_CRS_DIR ?? '/usr/share/modsecurity-crs/rules';
const BATCH = 40;
/** The CRS project runs its corpus at paranoia 4; a lower level checks the rules a lighter profile keeps. */
const PARANOIA = Number(process.env.BENCH_CRS_PARANOIA ?? 4);
const PARALLEL = 8;

interface StageInput {
  method?: string;
  uri?: string;
  version?: string;
  headers?: Record<string, string | number>;
  data?: string | string[];
  raw_request?: string;
  encoded_request?: string;
  stop_magic?: boolean;
}
interface StageOutput {
  status?: number | number[];
  log_contains?: string;
  no_log_contains?: string;
  response_contains?: string;
  expect_error?: boolean;
}
interface CorpusTest {
  title: string;
  stages: { input: StageInput; output: StageOutput }[];
}

/** Every enabled test of every YAML file under dir, in file order. */
function loadCorpus(dir: string): CorpusTest[] {
  const files: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(name)) files.push(full);
    }
  };
  walk(dir);
  const tests: CorpusTest[] = [];
  for (const file of files) {
    const doc = parse(readFileSync(file, 'utf8')) as {
      meta?: { enabled?: boolean };
      tests?: { test_title: string; stages: { stage: { input: StageInput; output: StageOutput } }[] }[];
    };
    if (doc.meta?.enabled === false) continue;
    for (const test of doc.tests ?? []) {
      tests.push({ title: String(test.test_title), stages: test.stages.map(({ stage }) => stage) });
    }
  }
  return tests;
}

/** The corpus: BENCH_CRS_TESTS, or the tests of the v3.3.4 release archive, downloaded and unpacked. */
async function corpusDir(): Promise<string> {
  const local = process.env.BENCH_CRS_TESTS;
  if (local) return local;
  const dir = tempDir('rampart-crs-corpus-');
  const response = await fetch(CRS_RELEASE);
  if (!response.ok) throw new Error(`${CRS_RELEASE}: HTTP ${response.status}; set BENCH_CRS_TESTS to a local copy`);
  writeFileSync(join(dir, 'crs.tar.gz'), Buffer.from(await response.arrayBuffer()));
  execFileSync('tar', ['-xzf', join(dir, 'crs.tar.gz'), '-C', dir]);
  return join(dir, 'coreruleset-3.3.4', 'tests', 'regression', 'tests');
}

/**
 * The site both set-ups are asked for: the corpus's `Host: localhost` is not a name a site can have,
 * so it is written as this one in every request, to the stock proxy too (the same bytes to both).
 */
const SITE = 'crs.localhost.test';

/**
 * The bytes go-ftw sends for a stage: the raw request as given, or one built from its parts with its
 * completed headers unless the stage stops that (Content-Type for a body, Connection: close, and
 * Content-Length for a body or a method that takes one; CRLF line ends in a multipart body).
 */
function requestBytes(input: StageInput): Buffer {
  const named = (request: string) =>
    Buffer.from(request.replace(/(\r\nhost: *)localhost(?=\r\n)/i, `$1${SITE}`), 'latin1');
  if (input.encoded_request) return named(Buffer.from(input.encoded_request, 'base64').toString('latin1'));
  if (input.raw_request) return named(input.raw_request);
  const method = input.method ?? 'GET';
  let data = Array.isArray(input.data) ? input.data.join('\r\n') : (input.data ?? '');
  const headers = Object.entries(input.headers ?? {}).map(([name, value]): [string, string] => [name, String(value)]);
  const has = (name: string) => headers.some(([header]) => header.toLowerCase() === name);
  if (!input.stop_magic) {
    if (data !== '' && !has('content-type')) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    const type = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
    if (type.startsWith('multipart/form-data;')) data = data.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n');
    if (!has('connection')) headers.push(['Connection', 'close']);
    if ((data !== '' || /^(POST|PUT|PATCH|DELETE)$/.test(method)) && !has('content-length')) {
      headers.push(['Content-Length', String(Buffer.byteLength(data, 'latin1'))]);
    }
  }
  const head = `${method} ${input.uri ?? '/'} ${input.version ?? 'HTTP/1.1'}\r\n`;
  const lines = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return named(`${head}${lines}\r\n${data}`);
}

interface Exchange {
  port: number;
  status: number | null;
  response: string;
  error: boolean;
}

/** Sends one request on its own connection and reads the answer (to its length, or the close). */
function exchange(target: number, bytes: Buffer, head: boolean): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: target });
    let received = Buffer.alloc(0);
    let port = 0;
    let settled = false;
    const finish = (error: boolean) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const response = received.toString('latin1');
      const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(response);
      resolve({ port, status: status ? Number(status[1]) : null, response, error: error && !status });
    };
    socket.setTimeout(3000, () => finish(true));
    socket.on('connect', () => {
      port = socket.localPort ?? 0;
      socket.write(bytes);
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (complete(received.toString('latin1'), head)) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(false));
  });
}

function complete(response: string, head: boolean): boolean {
  const end = response.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const headers = response.slice(0, end).toLowerCase();
  const status = Number(/^http\/\S+ (\d{3})/.exec(headers)?.[1] ?? 0);
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) return true;
  const length = /\r\ncontent-length: *(\d+)/.exec(headers);
  if (length) return Buffer.byteLength(response.slice(end + 4), 'latin1') >= Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/.test(headers)) return response.endsWith('\r\n0\r\n\r\n');
  return false;
}

/** Audit entries appended to a ModSecurity JSON audit log since `offset`: a log line per rule message, by client port. */
function readAudit(file: string, offset: number): { next: number; byPort: Map<number, string> } {
  const byPort = new Map<number, string>();
  if (!existsSync(file)) return { next: offset, byPort };
  const text = readFileSync(file).subarray(offset);
  for (const line of text.toString('utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as {
      transaction: { client_port: number; messages?: { message: string; details: { ruleId: string } }[] };
    };
    const messages = (entry.transaction.messages ?? [])
      .map((m) => `[id "${m.details.ruleId}"] [msg "${m.message}"]`)
      .join('\n');
    byPort.set(entry.transaction.client_port, `${byPort.get(entry.transaction.client_port) ?? ''}${messages}\n`);
  }
  return { next: offset + text.length, byPort };
}

/** Why a stage failed, or null when it passed. */
function stageFailure(output: StageOutput, result: Exchange, log: string): string | null {
  if (output.expect_error !== undefined) return output.expect_error === result.error ? null : 'error expected or not';
  if (output.status !== undefined) {
    const statuses = Array.isArray(output.status) ? output.status : [output.status];
    if (!statuses.includes(result.status ?? -1)) return `status ${result.status}`;
  }
  if (output.log_contains && !new RegExp(output.log_contains).test(log)) return `not logged ${output.log_contains}`;
  if (output.no_log_contains && new RegExp(output.no_log_contains).test(log)) return `logged ${output.no_log_contains}`;
  if (output.response_contains && !new RegExp(output.response_contains).test(result.response)) return 'response';
  return null;
}

/** Runs the corpus against one target; the titles of the tests that passed. */
async function runCorpus(tests: CorpusTest[], target: number, auditLog: string): Promise<Set<string>> {
  const passed = new Set<string>();
  let offset = existsSync(auditLog) ? statSync(auditLog).size : 0;
  for (let start = 0; start < tests.length; start += BATCH) {
    const batch = tests.slice(start, start + BATCH);
    const results: Exchange[][] = batch.map(() => []);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < batch.length; i = next++) {
        for (const stage of batch[i]?.stages ?? []) {
          const head = (stage.input.method ?? 'GET').trim().toUpperCase() === 'HEAD';
          results[i]?.push(await exchange(target, requestBytes(stage.input), head));
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    await new Promise((resolve) => setTimeout(resolve, 300)); // the audit entry is written after the answer
    const audit = readAudit(auditLog, offset);
    offset = audit.next;
    batch.forEach((test, i) => {
      const failures = test.stages.map((stage, s) => {
        const result = results[i]?.[s];
        return result ? stageFailure(stage.output, result, audit.byPort.get(result.port) ?? '') : 'not sent';
      });
      const failure = failures.find((reason) => reason !== null);
      if (failure === undefined) passed.add(test.title);
      else if (process.env.BENCH_CORPUS_FAILURES) console.error(`${target} ${test.title}: ${failure}`);
    });
  }
  return passed;
}

/** What the CRS project's test set-up adds to crs-setup.conf (its tests/regression README). */
const CORPUS_SETTINGS = [
  'SecAction "id:900005,phase:1,nolog,pass,ctl:ruleEngine=DetectionOnly,ctl:ruleRemoveById=910000,\\',
  `  setvar:tx.paranoia_level=${PARANOIA},setvar:tx.crs_validate_utf8_encoding=1,\\`,
  '  setvar:tx.arg_name_length=100,setvar:tx.arg_length=400"',
  '',
].join('\n');

const tests = loadCorpus(await corpusDir());
const work = tempDir('rampart-bench-waf-corpus-');
const setup = join(work, 'crs-setup.conf');
writeFileSync(setup, `${readFileSync(CRS_SETUP, 'utf8')}\n${CORPUS_SETTINGS}`);
process.env.RAMPART_CRS_SETUP = setup; // the edge's agent reads its setup from here too

const { port: originPort, nginx: origin } = await startBenchOrigin();
const stockPort = await freePort();
const stockAudit = join(work, 'stock-audit.log');
writeFileSync(join(work, 'modsecurity.conf'), stockModSecurityConf(stockAudit, setup, CRS_RULES));
const stock = startPlainNginx(
  'stock-corpus',
  `    access_log off;
    proxy_http_version 1.1;
    upstream stock_origin { server 127.0.0.1:${originPort}; keepalive 64; }
    server {
        listen 127.0.0.1:${stockPort} default_server;
        modsecurity on; modsecurity_rules_file ${work}/modsecurity.conf;
        location / { proxy_pass http://stock_origin; proxy_set_header Connection ""; }
    }`,
  ['load_module /usr/lib/nginx/modules/ngx_http_modsecurity_module.so;'],
);

const waf = { mode: 'detect' as const, paranoia: PARANOIA, exclusions: [910000] };
/** Whether the site inspects static files (the bench's default) or lets their plain requests skip the engine. */
const INSPECT_STATIC = process.env.BENCH_CRS_STATIC !== 'skip';
const edge = await createEdge();
try {
  const outcome = await edge.applier.apply(
    edge.snapshot({
      version: 2,
      sites: [
        makeSite({
          id: 1,
          domains: [SITE],
          origins: [{ address: '127.0.0.1', port: originPort, weight: 1, backup: false }],
          protection: { ...DEFAULT_SITE_PROTECTION, waf: { ...waf, inspect_static: INSPECT_STATIC } },
        }),
      ],
      // Tests with another Host (or none) are inspected with the same settings as requests no site serves.
      unknown_host: { action: 'page', waf },
    }),
  );
  if (!outcome.applied || outcome.errors.length > 0) {
    throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
  }
  const started = new Date().toISOString();
  const edgePassed = await runCorpus(tests, edge.ports.http, edge.paths.wafAuditLog);
  const stockPassed = await runCorpus(tests, stockPort, stockAudit);
  const onlyStock = tests.filter((test) => stockPassed.has(test.title) && !edgePassed.has(test.title));
  const onlyEdge = tests.filter((test) => edgePassed.has(test.title) && !stockPassed.has(test.title));
  console.log(
    [
      `date: ${started}  CRS regression corpus: ${tests.length} tests, detect mode, paranoia ${PARANOIA}, static files ${INSPECT_STATIC ? 'inspected' : 'skip the engine when plain'}`,
      `edge WAF site: ${edgePassed.size} of ${tests.length} pass`,
      `stock nginx + ModSecurity + CRS: ${stockPassed.size} of ${tests.length} pass`,
      `pass on stock only (${onlyStock.length}): ${onlyStock.map((test) => test.title).join(' ')}`,
      `pass on the edge only (${onlyEdge.length}): ${onlyEdge.map((test) => test.title).join(' ')}`,
    ].join('\n'),
  );
} finally {
  await edge.close();
  origin.stop();
  stock.stop();
}
