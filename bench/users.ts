// GET /v1/users (the admin's /sys/user list) with 100k users: p50/p99 of searches over account,
// email, phone and name, and of filtered, sorted pages, through the API (HTTP, auth, access check,
// envelope, schema; wrk on one connection) against the same queries as raw SQL on the same database
// in the same run. The process pins itself to core 0 where taskset exists.
// Usage: node bench/users.ts  (SQLite), or BENCH_PG_URL=postgres://… node bench/users.ts
// (PostgreSQL, in a schema of its own that is dropped after, or kept with BENCH_PG_KEEP=1 to read
// plans in psql). BENCH_USERS: default 100,000.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { hashPassword } from '../apps/master/src/modules/auth/passwords.ts';
import { searchRange, userSearchTerms } from '../apps/master/src/modules/users/user-search.ts';
import { userSearchKey } from '../apps/master/src/modules/users/users.repository.ts';
import {
  NARROW_SEARCH_TERMS,
  USER_LIST_COUNT_CAP,
  USER_SEARCH_COUNT_CAP,
} from '../apps/master/src/modules/users/users-admin.repository.ts';
import { BENCH_ADMIN_PASSWORD, startInProcessMaster } from './in-process.ts';
import { runPinnedToCore0, wrkInBackground } from './support.ts';

runPinnedToCore0();

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SAMPLES = 300;
const API_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const PG_URL = process.env.BENCH_PG_URL;
const TARGET_P99_MS = 50;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

interface RawSql {
  all(text: string): Promise<unknown[]>;
  close(): Promise<void>;
}

function sqliteRaw(file: string): RawSql {
  const db = new SqliteDatabase(file, { readonly: true });
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    async all(text) {
      const statement = statements.get(text) ?? db.prepare(text);
      statements.set(text, statement);
      return statement.all();
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
  'rampart-users-',
  PG_URL && schema ? { url: PG_URL, schema } : undefined,
);
const db = database.db;

// Ten groups; users spread over them, one in ten an admin, one in thirteen disabled, one in three certified.
const GROUPS = 10;
const groupIds: number[] = [];
for (let g = 0; g < GROUPS; g++) {
  const now = Date.now();
  const row = await db
    .insertInto('user_groups')
    .values({
      name: `Group ${g}`,
      name_key: `group ${g}`,
      description: '',
      is_default: 0,
      package_groups: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  groupIds.push(Number(row.id));
}
const seedStarted = performance.now();
const passwordHash = await hashPassword('bench-user-pass');
const CHUNK = 500;
const started = Date.now() - USERS * 1000;
for (let from = 1; from <= USERS; from += CHUNK) {
  const rows = [];
  for (let i = from; i < Math.min(from + CHUNK, USERS + 1); i++) {
    const username = `user${i}`;
    const email = `${username}@mail${i % 50}.example.com`;
    const phone = `+86138${String(i).padStart(8, '0')}`;
    const name = `Person ${i} ${['Li', 'Wang', 'Zhang', 'Smith', 'Garcia'][i % 5]}`;
    rows.push({
      username,
      username_key: username,
      name,
      email,
      email_key: email,
      phone,
      phone_key: phone,
      qq: '',
      password_hash: passwordHash,
      type: i % 10 === 0 ? 1 : 2,
      access: '[]',
      group_id: groupIds[i % GROUPS] ?? null,
      balance: 0,
      status: i % 13 === 0 ? 'disabled' : 'enabled',
      certified: i % 3 === 0 ? 1 : 0,
      search_key: userSearchKey({ username, email, phone, name }),
      created_at: started + i * 1000,
      updated_at: started + i * 1000,
    });
  }
  const ids = await db
    .insertInto('users')
    .values(rows)
    .returning(['id', 'username', 'email', 'phone', 'name'])
    .execute();
  await db
    .insertInto('user_search_terms')
    .values(ids.flatMap((row) => userSearchTerms(row).map((term) => ({ term, user_id: row.id }))))
    .execute();
}
const seedSeconds = (performance.now() - seedStarted) / 1000;
const raw = PG_URL && schema ? await postgresRaw(PG_URL, schema) : sqliteRaw(join(dataDir, 'rampart.db'));
// What autovacuum does soon after a bulk load (visibility map: index-only scans; statistics).
if (PG_URL) await raw.all('vacuum analyze');

const login = (await (
  await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: BENCH_ADMIN_PASSWORD }),
  })
).json()) as { data: { access_token: string } };
const token = login.data.access_token;
const GROUP = groupIds[3] ?? 0;

const ORDER = {
  id: 'users.id',
  account: 'users.username_key',
  email: 'users.email_key',
  created_at: 'users.created_at',
};
type SortKey = keyof typeof ORDER;

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** What the repository runs: a page with each user's group name, and the count. */
async function pageAndCount(from: string, where: string, sort: SortKey, desc: boolean, offset: number, count: string) {
  const direction = desc ? 'desc' : 'asc';
  const order = sort === 'id' ? `users.id ${direction}` : `${ORDER[sort]} ${direction}, users.id ${direction}`;
  await raw.all(
    `select users.*, user_groups.name as group_name from ${from} left join user_groups on user_groups.id = users.group_id where 1 = 1${where} order by ${order} limit 20 offset ${offset}`,
  );
  await raw.all(count);
}

/** A search as the repository runs it: read the matches (narrow) or walk users (broad), then count. */
async function searchPage(term: string, where: string, sort: SortKey, desc: boolean) {
  const range = searchRange(term);
  if (!range) throw new Error('empty search');
  const within = (column: string) => `${column} >= ${quoted(range.from)} and ${column} < ${quoted(range.to)}`;
  const probe = (await raw.all(
    `select user_id from user_search_terms where ${within('term')} limit ${NARROW_SEARCH_TERMS + 1}`,
  )) as { user_id: number | string }[];
  if (probe.length <= NARROW_SEARCH_TERMS) {
    if (probe.length === 0) return;
    const ids = [...new Set(probe.map((row) => Number(row.user_id)))].join(', ');
    await pageAndCount(
      'users',
      ` and users.id in (${ids})${where}`,
      sort,
      desc,
      0,
      `select count(*) as n from users where users.id in (${ids})${where}`,
    );
    return;
  }
  await pageAndCount(
    'users',
    ` and exists (select 1 as one from user_search_terms as t where t.user_id = users.id and ${within('t.term')})${where}`,
    sort,
    desc,
    0,
    where
      ? `select count(*) as n from (select distinct users.id from user_search_terms as t cross join users where users.id = t.user_id and ${within('t.term')}${where} limit ${USER_SEARCH_COUNT_CAP + 1}) as counted`
      : `select count(*) as n from (select distinct user_id as id from user_search_terms where ${within('term')}${PG_URL ? ' order by user_id' : ''} limit ${USER_SEARCH_COUNT_CAP + 1}) as counted`,
  );
}

/** The plain list's count as the repository runs it: stops past USER_LIST_COUNT_CAP. */
const listCount = (where: string) =>
  `select count(*) as n from (select users.id from users where 1 = 1${where} limit ${USER_LIST_COUNT_CAP + 1}) as counted`;

interface Case {
  label: string;
  query: string;
  raw: () => Promise<unknown>;
  search: boolean;
}
const search = (label: string, term: string): Case => ({
  label,
  query: `search=${encodeURIComponent(term)}&limit=20`,
  raw: () => searchPage(term, '', 'id', true),
  search: true,
});
const cases: Case[] = [
  search('search "user4242" (account prefix, 11 matches)', 'user4242'),
  search('search "USER77777@MAIL" (email, any case)', 'USER77777@MAIL'),
  search('search "8613800012" (phone without +, 1,000 matches: narrow at the limit)', '8613800012'),
  search('search "mail7.example.com" (email domain, 2,000 matches: broad)', 'mail7.example.com'),
  search('search "zhang" (a word of the name, 20,000 matches: broad, count capped)', 'zhang'),
  search('search "u" (every user: broad, count capped)', 'u'),
  search('search "nobody-has-this" (no match)', 'nobody-has-this'),
  {
    label: 'search "person" + type + state + certified, sorted by account',
    query: 'search=person&type=2&state=enabled&certified=true&sort=account&limit=20',
    raw: () =>
      searchPage(
        'person',
        " and users.type = 2 and users.status = 'enabled' and users.certified = 1",
        'account',
        false,
      ),
    search: true,
  },
  {
    label: 'search "u" (every user) + state disabled + certified + type 1 (256 matches)',
    query: 'search=u&type=1&state=disabled&certified=true&limit=20',
    raw: () => searchPage('u', " and users.type = 1 and users.status = 'disabled' and users.certified = 1", 'id', true),
    search: true,
  },
  {
    label: 'group filter, sorted by email, page 50',
    query: `group=${GROUP}&sort=email&page=50&limit=20`,
    raw: () =>
      pageAndCount(
        'users',
        ` and users.group_id = ${GROUP}`,
        'email',
        false,
        980,
        listCount(` and users.group_id = ${GROUP}`),
      ),
    search: false,
  },
  {
    label: 'every user, newest first, page 1',
    query: 'limit=20',
    raw: () => pageAndCount('users', '', 'id', true, 0, listCount('')),
    search: false,
  },
];

if (PG_URL) await raw.all('checkpoint');
for (const entry of cases) {
  await wrkInBackground(`${base}/v1/users?${entry.query}`, {
    seconds: 1,
    connections: 1,
    lua: `wrk.headers["access-token"] = "${token}"`,
  });
  for (let i = 0; i < 5; i++) await entry.raw();
}

console.log(
  `date: ${new Date().toISOString()}  node ${process.version}  ${USERS} users (seeded in ${seedSeconds.toFixed(0)} s), API: wrk -c1 for ${API_SECONDS} s a case, raw SQL: ${SAMPLES} runs a case, ${database.dialect}${process.env.BENCH_PINNED ? ', pinned to core 0' : ''}`,
);
let worstSearchP99 = 0;
for (const entry of cases) {
  const api = await wrkInBackground(`${base}/v1/users?${entry.query}`, {
    seconds: API_SECONDS,
    connections: 1,
    lua: `wrk.headers["access-token"] = "${token}"`,
  });
  const sqlTimes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const at = performance.now();
    await entry.raw();
    sqlTimes.push(performance.now() - at);
  }
  if (entry.search) worstSearchP99 = Math.max(worstSearchP99, api.p99Ms);
  console.log(
    `${entry.label}: API p50 ${api.p50Ms.toFixed(2)} ms, p99 ${api.p99Ms.toFixed(2)} ms (${api.requests} calls); raw SQL p50 ${percentile(sqlTimes, 0.5).toFixed(2)} ms, p99 ${percentile(sqlTimes, 0.99).toFixed(2)} ms; ratio (SQL/API) p50 ${(percentile(sqlTimes, 0.5) / api.p50Ms).toFixed(2)}, p99 ${(percentile(sqlTimes, 0.99) / api.p99Ms).toFixed(2)}`,
  );
}
console.log(
  `worst search API p99: ${worstSearchP99.toFixed(2)} ms (target < ${TARGET_P99_MS} ms): ${worstSearchP99 < TARGET_P99_MS ? 'met' : 'NOT met'}`,
);
await raw.close();
await app.close();
rmSync(dataDir, { recursive: true, force: true });
if (PG_URL && schema && process.env.BENCH_PG_KEEP) console.log(`kept schema ${schema}`);
else if (PG_URL && schema) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
