// Purchases from the balance on PostgreSQL with 100 concurrent buyers (POST /v1/user-packages over
// HTTP: discount, stock, conditional debit, order row, user package), against a bare insert of the
// same rows (a user package and an order per purchase, in one transaction, no checks) by 100
// concurrent clients in the same run; then the buy page's price quote (the same call with
// quote: true and a coupon) p50/p99 at 10 concurrent callers.
// Usage: BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test node bench/purchases.ts
import pg from 'pg';
import { BENCH_ADMIN_PASSWORD, startInProcessMaster } from './in-process.ts';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BUYERS = 100;
const PER_BUYER = Number(process.env.BENCH_PER_BUYER ?? 10);
const QUOTES = Number(process.env.BENCH_QUOTES ?? 2000);

interface Envelope<T> {
  code: number | string;
  msg: string;
  data: T;
}
async function call<T>(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['access-token'] = token;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

const schema = `rampart_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`create schema ${schema}`);
const master = await startInProcessMaster('rampart-bench-purchases-', { url: PG_URL, schema });
try {
  const { base } = master;
  const root = (
    await call<{ access_token: string }>(base, 'POST', '/v1/login', null, {
      account: 'admin',
      password: BENCH_ADMIN_PASSWORD,
    })
  ).access_token;
  const pkg = await call<{ id: number }>(base, 'POST', '/v1/packages', root, {
    name: 'Bench',
    price_month: 100,
    price_year: 1000,
    on_sale: true,
    stock: 1_000_000,
    max_sites: 10,
  });
  await call(base, 'POST', '/v1/discounts', root, { term: 'year', percent: 10 });
  await call(base, 'POST', '/v1/coupons', root, { code: 'BENCH10', kind: 'percent', value: 10, uses_total: 1_000_000 });
  // Buyers: registered through the API (the admin creates them), each with money for PER_BUYER purchases.
  const tokens: string[] = [];
  for (let i = 0; i < BUYERS; i++) {
    const user = await call<{ id: number; password?: string }>(base, 'POST', '/v1/users', root, {
      username: `buyer${i}`,
      password: `buyer-pass-${i}`,
      type: 2,
    });
    await call(base, 'POST', `/v1/user/${user.id}/recharge`, root, { amount: PER_BUYER * 100 });
    tokens.push(
      (
        await call<{ access_token: string }>(base, 'POST', '/v1/login', null, {
          account: `buyer${i}`,
          password: `buyer-pass-${i}`,
        })
      ).access_token,
    );
  }

  // Purchases through the API.
  let started = performance.now();
  await Promise.all(
    tokens.map(async (token) => {
      for (let n = 0; n < PER_BUYER; n++) await call(base, 'POST', '/v1/user-packages', token, { package_id: pkg.id });
    }),
  );
  const apiSeconds = (performance.now() - started) / 1000;
  const purchases = BUYERS * PER_BUYER;

  // The same rows inserted bare, 100 clients at once.
  const pool = new pg.Pool({ connectionString: PG_URL, max: 10, options: `-c search_path=${schema}` });
  const users = (await pool.query<{ id: number }>('select id from users where type = 2 order by id')).rows;
  started = performance.now();
  await Promise.all(
    users.map(async ({ id }, index) => {
      for (let n = 0; n < PER_BUYER; n++) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const now = Date.now();
          const row = await client.query<{ id: number }>(
            `insert into user_packages (user_id, package_id, name, term, state, auto_renew, start_at, end_at, created_at)
             values ($1, $2, 'Bench', 'month', 'active', 0, $3, $4, $3) returning id`,
            [id, pkg.id, now, now + 30 * 86_400_000],
          );
          await client.query(
            `insert into orders (user_id, kind, channel, state, amount, balance_after, description, user_package_id,
               out_trade_no, created_at, paid_at) values ($1, 'purchase', 'balance', 'paid', -100, 0, 'bare', $2, $3, $4, $4)`,
            [id, row.rows[0]?.id, `bare${index}x${n}x${now}`, now],
          );
          await client.query('commit');
        } finally {
          client.release();
        }
      }
    }),
  );
  const bareSeconds = (performance.now() - started) / 1000;
  await pool.end();

  // Price quotes, 10 at a time.
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async (_, worker) => {
      const token = tokens[worker] ?? root;
      while (next < QUOTES) {
        next++;
        const t = performance.now();
        await call(base, 'POST', '/v1/user-packages', token, {
          package_id: pkg.id,
          term: 'year',
          coupon: 'BENCH10',
          quote: true,
        });
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const apiRate = purchases / apiSeconds;
  const bareRate = purchases / bareSeconds;
  console.log(`${new Date().toISOString()} PostgreSQL, ${BUYERS} concurrent buyers, ${purchases} purchases each way`);
  console.log(`purchases through POST /v1/user-packages: ${apiRate.toFixed(0)} /s`);
  console.log(`bare insert of the same rows:             ${bareRate.toFixed(0)} /s`);
  console.log(`ratio purchase / bare insert: ${(apiRate / bareRate).toFixed(3)}`);
  console.log(
    `price quote (discount + coupon), ${QUOTES} calls at 10 concurrent: p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms`,
  );
} finally {
  await master.app.close();
  await master.database.close();
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
