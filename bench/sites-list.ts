// GET /v1/sites with 100k sites: p50/p99 of filtered pages and domain substring searches through the
// API (HTTP, auth, envelope, schema; wrk on one connection) against the same queries run as raw SQL
// on the same database in the same run. The process pins itself to core 0 where taskset exists.
// Usage: node bench/sites-list.ts  (SQLite), or BENCH_PG_URL=postgres://… node bench/sites-list.ts
// (PostgreSQL, in a schema of its own that is dropped after). BENCH_SITES: default 100,000.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { hashPassword } from '../apps/master/src/modules/auth/passwords.ts';
import { INTERSECTED_GRAMS, POSTING_CAPS } from '../apps/master/src/modules/sites/site-search.repository.ts';
import { searchGrams, searchNeedle } from '../apps/master/src/modules/sites/site-search.ts';
import { SEARCH_COUNT_CAP } from '../apps/master/src/modules/sites/sites.repository.ts';
import { insertUser } from '../apps/master/src/modules/users/users.repository.ts';
import { startInProcessMaster } from './in-process.ts';
import { seedSites } from './site-seed.ts';
import { runPinnedToCore0, wrkInBackground } from './support.ts';

runPinnedToCore0();

const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const SAMPLES = 300;
const API_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const PG_URL = process.env.BENCH_PG_URL;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

/** Raw SQL on the bench's own connection: better-sqlite3 statements, or a pg client. */
interface RawSql {
  all(text: string): Promise<{ [column: string]: unknown }[]>;
  close(): Promise<void>;
}

function sqliteRaw(file: string): RawSql {
  const db = new SqliteDatabase(file, { readonly: true });
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    async all(text) {
      const statement = statements.get(text) ?? db.prepare(text);
      statements.set(text, statement);
      return statement.all() as { [column: string]: unknown }[];
    },
    close: async () => void db.close(),
  };
}

async function postgresRaw(url: string, schema: string): Promise<RawSql> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  return { all: async (text) => (await client.query(text)).rows, close: () => client.end() };
}

const schema = PG_URL ? `rampart_bench_${Date.now()}` : undefined;
if (PG_URL && schema) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
}
const { app, database, dataDir, base } = await startInProcessMaster(
  'rampart-sites-',
  PG_URL && schema ? { url: PG_URL, schema } : undefined,
);

const customer = await insertUser(
  database.db,
  { username: 'customer', passwordHash: await hashPassword('customer-pass'), type: 2, access: [] },
  Date.now(),
);
const USER = customer.id;
const seedStarted = performance.now();
const { groups } = await seedSites(database.db, database.dialect, USER, SITES);
const seedSeconds = (performance.now() - seedStarted) / 1000;
const raw = PG_URL && schema ? await postgresRaw(PG_URL, schema) : sqliteRaw(join(dataDir, 'rampart.db'));

const login = (await (
  await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'customer', password: 'customer-pass' }),
  })
).json()) as { data: { access_token: string } };
const token = login.data.access_token;
const GROUP = groups[2] ?? 0;

/** A page and its count, as the repository asks for them (a domain search counts up to the cap). */
async function pageAndCount(where: string, order: string, offset: number, countCap?: number) {
  await raw.all(
    `select * from sites where user_id = ${USER}${where} order by ${order}, id desc limit 20 offset ${offset}`,
  );
  await raw.all(
    countCap === undefined
      ? `select count(*) as n from sites where user_id = ${USER}${where}`
      : `select count(*) as n from (select 1 from sites where user_id = ${USER}${where} limit ${countCap + 1}) as matched`,
  );
}

/** What the API runs for `domain=term`, written by hand: count postings, rank grams, then page and count. */
async function rawSearch(term: string, where: string, order: string, offset: number) {
  const needle = searchNeedle(term);
  const grams = searchGrams(needle);
  const contains = (fence: string) =>
    `exists (select 1 from site_domains d where d.site_id = sites.id and d.domain like '%${needle}%' escape '\\'${fence})`;
  const countPostings = (cap: number) =>
    raw.all(
      grams
        .map(
          (gram, i) =>
            `select ${i} as gram_index, count(*) as n from (select site_id from site_grams where gram = '${gram}' limit ${cap}) as postings`,
        )
        .join(' union all '),
    );
  let counts = await countPostings(POSTING_CAPS.rare);
  if (counts.every((row) => Number(row.n) >= POSTING_CAPS.rare)) counts = await countPostings(POSTING_CAPS.common);
  const ranked = counts
    .map((row) => ({ gram: grams[Number(row.gram_index)] ?? '', n: Number(row.n) }))
    .sort((a, b) => a.n - b.n);
  const [driver, ...probes] = ranked.slice(0, INTERSECTED_GRAMS);
  const probe = (gram: string) =>
    ` and exists (select 1 from site_grams p where p.gram = '${gram}' and p.site_id = g.site_id)`;
  const filter =
    !driver || driver.n >= POSTING_CAPS.common
      ? contains('')
      : `sites.id in (select g.site_id from site_grams g where g.gram = '${driver.gram}'${probes.map((entry) => probe(entry.gram)).join('')}) and ${contains(' limit 1 offset 0')}`;
  await pageAndCount(`${where} and ${filter}`, order, offset, SEARCH_COUNT_CAP);
}

/** Before the index: LIKE on every domain of the user's sites. */
const plainScan = (term: string) =>
  pageAndCount(
    ` and exists (select 1 from site_domains d where d.site_id = sites.id and d.domain like '%${term}%')`,
    'id desc',
    0,
  );

interface Case {
  label: string;
  query: string;
  raw: () => Promise<void>;
  samples?: number;
}
/** A search case; the terms are the bench's own (no quotes), so they go into the raw SQL as they are. */
const search = (term: string): Pick<Case, 'query' | 'raw'> => ({
  query: `domain=${encodeURIComponent(term)}&limit=20`,
  raw: () => rawSearch(term, '', 'id desc', 0),
});
const cases: Case[] = [
  {
    label: 'group + enabled, sorted by domain, page 50',
    query: `group_id=${GROUP}&enabled=true&sort=domain&page=50&limit=20`,
    raw: () => pageAndCount(` and group_id = ${GROUP} and enabled = 1`, 'primary_domain asc', 980),
  },
  {
    label: 'HTTPS only, newest first, page 1',
    query: 'https=true&limit=20',
    raw: () => pageAndCount(' and https = 1', 'id desc', 0),
  },
  { label: 'domain search "s4242" (rare grams)', ...search('s4242') },
  { label: 'domain search "S4242.bench" (rare and common grams, any case)', ...search('S4242.bench') },
  {
    label: 'domain search "s42" + group + enabled, sorted by domain',
    query: `domain=s42&group_id=${GROUP}&enabled=true&sort=domain&limit=20`,
    raw: () => rawSearch('s42', ` and group_id = ${GROUP} and enabled = 1`, 'primary_domain asc', 0),
  },
  {
    label: 'domain search "bench" (every gram common: reads every domain)',
    ...search('bench'),
    samples: 60,
  },
  {
    label: 'before the index: LIKE on every domain, "s4242" (raw SQL only)',
    query: '',
    raw: () => plainScan('s4242'),
    samples: 60,
  },
];

// Steady state, not the seed's aftermath: PostgreSQL writes out what the bulk seed dirtied, and both
// sides run every case once, unmeasured, before the measured rounds.
if (PG_URL) await raw.all('checkpoint');
for (const entry of cases) {
  if (entry.query) {
    await wrkInBackground(`${base}/v1/sites?${entry.query}`, {
      seconds: 1,
      connections: 1,
      lua: `wrk.headers["access-token"] = "${token}"`,
    });
  }
  for (let i = 0; i < 5; i++) await entry.raw();
}

console.log(
  `date: ${new Date().toISOString()}  node ${process.version}  ${SITES} sites (seeded in ${seedSeconds.toFixed(0)} s), API: wrk -c1 for ${API_SECONDS} s a case, raw SQL: ${SAMPLES} runs a case, ${database.dialect}${process.env.BENCH_PINNED ? ', pinned to core 0' : ''}`,
);
for (const entry of cases) {
  // The API side through wrk on one connection (pinned to core 1 where taskset exists): every request
  // waits for the one before, so its percentiles are the latency of one call, with no client of ours
  // sharing this process's core. wrk runs in the background: the master answers from this process.
  const api = entry.query
    ? await wrkInBackground(`${base}/v1/sites?${entry.query}`, {
        seconds: API_SECONDS,
        connections: 1,
        lua: `wrk.headers["access-token"] = "${token}"`,
      })
    : null;
  const sqlTimes: number[] = [];
  for (let i = 0; i < (entry.samples ?? SAMPLES); i++) {
    const started = performance.now();
    await entry.raw();
    sqlTimes.push(performance.now() - started);
  }
  const sqlFigure = `raw SQL p50 ${percentile(sqlTimes, 0.5).toFixed(2)} ms, p99 ${percentile(sqlTimes, 0.99).toFixed(2)} ms`;
  if (!api) {
    console.log(`${entry.label}: ${sqlFigure}`);
    continue;
  }
  const ratio = percentile(sqlTimes, 0.5) / api.p50Ms;
  console.log(
    `${entry.label}: API p50 ${api.p50Ms.toFixed(2)} ms, p99 ${api.p99Ms.toFixed(2)} ms (${api.requests} calls); ${sqlFigure}; ratio (SQL/API at p50) ${ratio.toFixed(2)}`,
  );
}
await raw.close();
await app.close();
rmSync(dataDir, { recursive: true, force: true });
if (PG_URL && schema) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
