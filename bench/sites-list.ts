// GET /v1/sites with 100k sites in SQLite: p50/p99 of filtered pages through the API (HTTP, auth,
// envelope, schema) against the same queries run as raw SQL on the same database file.
// Usage: node bench/sites-list.ts

import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { hashPassword } from '../apps/master/src/modules/auth/passwords.ts';
import { DEFAULT_SITE_SETTINGS } from '../apps/master/src/modules/sites/site-rules.ts';
import { insertUser } from '../apps/master/src/modules/users/users.repository.ts';
import { startInProcessMaster } from './in-process.ts';

const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const SAMPLES = 300;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

const { app, database, dataDir, base } = await startInProcessMaster('rampart-sites-');

// A customer with 100k sites, seeded straight into the file: 5 groups, every 7th disabled, every 3rd on HTTPS.
await insertUser(
  database.db,
  { username: 'customer', passwordHash: await hashPassword('customer-pass'), type: 2, access: [] },
  Date.now(),
);
const raw = new SqliteDatabase(join(dataDir, 'rampart.db'));
const USER = Number((raw.prepare("select id from users where username = 'customer'").get() as { id: number }).id);
const now = Date.now();
const settings = (i: number) =>
  JSON.stringify({
    ...DEFAULT_SITE_SETTINGS,
    domains: [`s${i}.bench.example.com`],
    origins: [{ address: '127.0.0.1', port: 9000, weight: 1, backup: false }],
  });
raw.transaction(() => {
  const groups = [1, 2, 3, 4, 5].map((g) =>
    Number(
      raw.prepare('insert into site_groups (user_id, name, created_at) values (?, ?, ?)').run(USER, `g${g}`, now)
        .lastInsertRowid,
    ),
  );
  const site = raw.prepare(
    'insert into sites (user_id, group_id, name, primary_domain, settings, enabled, https, cert_id, version, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, null, 1, ?, ?)',
  );
  const domain = raw.prepare('insert into site_domains (domain, site_id) values (?, ?)');
  for (let i = 0; i < SITES; i++) {
    const name = `s${i}.bench.example.com`;
    const id = site.run(
      USER,
      groups[i % 5],
      name,
      name,
      settings(i),
      i % 7 === 0 ? 0 : 1,
      i % 3 === 0 ? 1 : 0,
      now,
      now + i,
    ).lastInsertRowid;
    domain.run(name, id);
  }
})();
raw.pragma('optimize');

const login = (await (
  await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'customer', password: 'customer-pass' }),
  })
).json()) as { data: { access_token: string } };
const token = login.data.access_token;

const GROUP = Number(
  (raw.prepare('select id from site_groups order by id limit 1 offset 2').get() as { id: number }).id,
);
const cases = [
  {
    label: 'group + enabled, sorted by domain, page 50',
    query: `group_id=${GROUP}&enabled=true&sort=domain&page=50&limit=20`,
    sql: `select * from sites where user_id = ${USER} and group_id = ${GROUP} and enabled = 1 order by primary_domain asc, id desc limit 20 offset 980`,
    count: `select count(*) from sites where user_id = ${USER} and group_id = ${GROUP} and enabled = 1`,
  },
  {
    label: 'domain search "s4242"',
    query: 'domain=s4242&limit=20',
    sql: `select * from sites where user_id = ${USER} and exists (select 1 from site_domains d where d.site_id = sites.id and d.domain like '%s4242%') order by id desc limit 20`,
    count: `select count(*) from sites where user_id = ${USER} and exists (select 1 from site_domains d where d.site_id = sites.id and d.domain like '%s4242%')`,
  },
  {
    label: 'HTTPS only, newest first, page 1',
    query: 'https=true&limit=20',
    sql: `select * from sites where user_id = ${USER} and https = 1 order by id desc limit 20`,
    count: `select count(*) from sites where user_id = ${USER} and https = 1`,
  },
];

console.log(
  `date: ${new Date().toISOString()}  node ${process.version}  ${SITES} sites, ${SAMPLES} requests a case, SQLite`,
);
for (const entry of cases) {
  const api: number[] = [];
  const sqlTimes: number[] = [];
  const list = raw.prepare(entry.sql);
  const count = raw.prepare(entry.count);
  for (let i = 0; i < SAMPLES; i++) {
    let started = performance.now();
    const response = await fetch(`${base}/v1/sites?${entry.query}`, { headers: { 'access-token': token } });
    await response.arrayBuffer();
    api.push(performance.now() - started);
    started = performance.now();
    list.all();
    count.get();
    sqlTimes.push(performance.now() - started);
  }
  const ratio = percentile(sqlTimes, 0.5) / percentile(api, 0.5);
  console.log(
    `${entry.label}: API p50 ${percentile(api, 0.5).toFixed(2)} ms, p99 ${percentile(api, 0.99).toFixed(2)} ms; raw SQL p50 ${percentile(sqlTimes, 0.5).toFixed(2)} ms, p99 ${percentile(sqlTimes, 0.99).toFixed(2)} ms; ratio (SQL/API at p50) ${ratio.toFixed(2)}`,
  );
}
raw.close();
await app.close();
