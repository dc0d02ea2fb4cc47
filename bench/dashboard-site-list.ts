// Dashboard figure: time to render the site list with 20 rows after a client-side navigation, in
// headless Chromium, for a customer who owns 100k sites; baseline in the same run: a bare page that
// fetches the same /v1/sites JSON and renders 20 rows in a plain table. Also, in the same run, the
// time from the menu's "Real-time data" to the realtime page's first chart painted (its canvas laid
// out, then the next animation frame), against the site list's time.
// Usage: node bench/dashboard-site-list.ts (after npm run build --workspace apps/dashboard).
// BENCH_SITES (default 100,000), BENCH_RUNS (default 15). Needs /usr/bin/chromium.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type ElementHandle, type Page } from 'playwright-core';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { hashPassword } from '../apps/master/src/modules/auth/passwords.ts';
import { insertUser } from '../apps/master/src/modules/users/users.repository.ts';
import { seedSites } from './site-seed.ts';
import { freePort, ROOT, start, stop, tempDir, waitFor200 } from './support.ts';

const DIST = join(ROOT, 'apps/dashboard/dist');
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ROWS = 20;
const LIST_QUERY = 'page=1&limit=20&sort=-id';

if (!existsSync(join(DIST, 'index.html')))
  throw new Error('build the dashboard first: npm run build --workspace apps/dashboard');

/** The baseline page: a button that fetches the list and writes 20 rows into a plain table. */
const BARE_HTML = `<!doctype html><meta charset="utf-8"><title>bare site list</title>
<button id="show">Show sites</button><table><thead><tr><th>ID</th><th>Domains</th><th>CNAME</th><th>Origins</th><th>Status</th></tr></thead><tbody id="rows"></tbody></table>
<script src="./bare.js"></script>`;
const BARE_JS = `document.getElementById('show').addEventListener('click', async () => {
  const token = decodeURIComponent((document.cookie.match(/(?:^|; )token=([^;]*)/) || [])[1] || '');
  const response = await fetch('/v1/sites?${LIST_QUERY}', { headers: { 'Access-Token': token } });
  const { data } = await response.json();
  const body = document.getElementById('rows');
  for (const site of data.list) {
    const row = document.createElement('tr');
    row.setAttribute('data-row-key', String(site.id));
    const cells = [site.id, site.domains.join(', '), site.cname, site.origins.map((o) => o.address + ':' + o.port).join(', '), site.enabled ? 'Enabled' : 'Disabled'];
    for (const value of cells) {
      const cell = document.createElement('td');
      cell.textContent = String(value);
      row.append(cell);
    }
    body.append(row);
  }
});`;

/**
 * The production build, plus the bare page under /dashboard/bare/, so one master serves both. (Asked
 * for by its file name: with precompressed files, the directory URL answers the build's own index.)
 */
const dashboardDir = tempDir('rampart-bench-dist-');
cpSync(DIST, dashboardDir, { recursive: true });
mkdirSync(join(dashboardDir, 'bare'));
writeFileSync(join(dashboardDir, 'bare/index.html'), BARE_HTML);
writeFileSync(join(dashboardDir, 'bare/bare.js'), BARE_JS);

const dataDir = tempDir('rampart-bench-');
const port = await freePort();
const master = start(process.execPath, [join(ROOT, 'apps/master/src/server.ts')], {
  RAMPART_PORT: String(port),
  RAMPART_DATA_DIR: dataDir,
  RAMPART_ADMIN_PASSWORD: 'bench-admin-pass',
  RAMPART_DASHBOARD_DIR: dashboardDir,
  RAMPART_LOG_LEVEL: 'warn',
});
const baseUrl = `http://127.0.0.1:${port}`;

/**
 * Clicks `target` inside the page and resolves with the page time of the click and of the animation
 * frame after `rowSelector` first matches at least 20 laid-out rows (the frame that paints them).
 */
const clickUntilRows = (target: ElementHandle, rowSelector: string, rowCount = ROWS) =>
  target.evaluate(
    (element, { selector, rows }) =>
      new Promise<{ started: number; ended: number }>((resolve, reject) => {
        const started = performance.now();
        (element as HTMLElement).click();
        const check = () => {
          const shown = [...document.querySelectorAll<HTMLElement>(selector)].filter((row) => row.offsetHeight > 0);
          if (shown.length >= rows) {
            requestAnimationFrame(() => resolve({ started, ended: performance.now() }));
            return;
          }
          if (performance.now() - started > 30_000) reject(new Error(`no ${rows} rows within 30 s`));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { selector: rowSelector, rows: rowCount },
  );

/** What the page fetched after the click: when the list JSON was asked for and arrived, and the last script, in ms. */
const fetchedSince = (page: Page, started: number) =>
  page.evaluate((since) => {
    const entries = performance
      .getEntriesByType('resource')
      .filter((entry): entry is PerformanceResourceTiming => entry.startTime >= since)
      .map((entry) => entry as PerformanceResourceTiming);
    const list = entries.find((entry) => entry.name.includes('/v1/sites?'));
    const scripts = entries.filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'));
    return {
      listRequested: list ? list.startTime - since : Number.NaN,
      listAnswered: list ? list.responseEnd - since : Number.NaN,
      scriptsLoaded: scripts.length > 0 ? Math.max(...scripts.map((entry) => entry.responseEnd)) - since : 0,
      scripts: scripts.length,
    };
  }, started);

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  await waitFor200(`${baseUrl}/v1/common/sysinfo`, performance.now());
  // The customer and the sites, written into the master's SQLite file beside the running master.
  const database = openDatabase({ dataDir });
  const customer = await insertUser(
    database.db,
    { username: 'customer', passwordHash: await hashPassword('customer-pass'), type: 2, access: [] },
    Date.now(),
  );
  await seedSites(database.db, 'sqlite', customer.id, SITES);
  await database.close();

  const login = await fetch(`${baseUrl}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account: 'customer', password: 'customer-pass' }),
  });
  const {
    access_token: token,
    expires_at: _expires,
    ...user
  } = ((await login.json()) as { data: Record<string, unknown> }).data as { access_token: string; expires_at: string };

  /** A fresh context signed in as the customer (token cookie, stored user), on `path`. */
  const openSignedIn = async (path: string): Promise<Page> => {
    const context = await browser.newContext({ baseURL: baseUrl, locale: 'en-US' });
    await context.addCookies([{ name: 'token', value: token, url: baseUrl }]);
    await context.addInitScript((stored) => localStorage.setItem('rampart.user', stored), JSON.stringify(user));
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${baseUrl}${path}`);
    return page;
  };

  /** Home page loaded and idle, then the side menu's "Site list" clicked: a client-side navigation. */
  const dashboardRun = async () => {
    const page = await openSignedIn('/dashboard/home');
    await page.getByTestId('home-page').waitFor();
    const sider = page.getByTestId('sider');
    const entry = sider.getByRole('menuitem', { name: 'Site list' });
    if (!(await entry.isVisible())) await sider.getByRole('menuitem', { name: 'Sites' }).click();
    await entry.waitFor();
    await page.waitForLoadState('networkidle');
    const { started, ended } = await clickUntilRows(
      await entry.elementHandle().then((handle) => handle ?? Promise.reject(new Error('no menu entry'))),
      '[data-testid="site-list-page"] tbody tr[data-row-key]',
    );
    if (!page.url().endsWith('/dashboard/site/list')) throw new Error(`navigated to ${page.url()}`);
    const fetched = await fetchedSince(page, started);
    await page.context().close();
    return { elapsed: ended - started, ...fetched };
  };

  /** Home page idle, then the side menu's "Real-time data" of the sites clicked, until the first chart's canvas paints. */
  const realtimeRun = async () => {
    const page = await openSignedIn('/dashboard/home');
    await page.getByTestId('home-page').waitFor();
    const sider = page.getByTestId('sider');
    const entry = sider.locator('li[data-menu-id$="-/site/realtime"]');
    if (!(await entry.isVisible())) await sider.getByRole('menuitem', { name: 'Sites' }).click();
    await entry.waitFor();
    await page.waitForLoadState('networkidle');
    const { started, ended } = await clickUntilRows(
      await entry.elementHandle().then((handle) => handle ?? Promise.reject(new Error('no menu entry'))),
      '[data-testid="site-realtime-page"] [data-testid^="chart-"] canvas',
      1,
    );
    if (!page.url().endsWith('/dashboard/site/realtime')) throw new Error(`navigated to ${page.url()}`);
    await page.context().close();
    return { elapsed: ended - started };
  };

  const bareRun = async () => {
    const page = await openSignedIn('/dashboard/bare/index.html');
    const button = page.getByRole('button', { name: 'Show sites' });
    await button.waitFor();
    await page.waitForLoadState('networkidle');
    const { started, ended } = await clickUntilRows(
      await button.elementHandle().then((handle) => handle ?? Promise.reject(new Error('no button'))),
      'tbody tr[data-row-key]',
    );
    const fetched = await fetchedSince(page, started);
    await page.context().close();
    return { elapsed: ended - started, ...fetched };
  };

  // One warm-up of each (Chromium's first page, the master's first queries), then alternating runs.
  await dashboardRun();
  await bareRun();
  await realtimeRun();
  const dashboard: Awaited<ReturnType<typeof dashboardRun>>[] = [];
  const bare: Awaited<ReturnType<typeof bareRun>>[] = [];
  const realtime: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    dashboard.push(await dashboardRun());
    bare.push(await bareRun());
    realtime.push((await realtimeRun()).elapsed);
  }
  const p50 = (values: number[]) => percentile(values, 0.5).toFixed(0);
  const figure = (values: number[]) => `p50 ${p50(values)} ms, p95 ${percentile(values, 0.95).toFixed(0)} ms`;
  const breakdown = (runs: typeof dashboard) =>
    `list JSON asked for at p50 ${p50(runs.map((run) => run.listRequested))} ms, ` +
    `answered at ${p50(runs.map((run) => run.listAnswered))} ms; ` +
    `${runs[0]?.scripts ?? 0} scripts fetched, the last at p50 ${p50(runs.map((run) => run.scriptsLoaded))} ms`;
  const dashboardTimes = dashboard.map((run) => run.elapsed);
  const bareTimes = bare.map((run) => run.elapsed);
  console.log(`date: ${new Date().toISOString()}  ${SITES} sites, ${RUNS} runs each, headless Chromium`);
  console.log(`dashboard /home → /site/list, 20 rows painted: ${figure(dashboardTimes)} (${breakdown(dashboard)})`);
  console.log(
    `bare page: fetch /v1/sites?${LIST_QUERY}, 20 rows in a plain table: ${figure(bareTimes)} (${breakdown(bare)})`,
  );
  console.log(`ratio at p50: ${(percentile(dashboardTimes, 0.5) / percentile(bareTimes, 0.5)).toFixed(2)}`);
  console.log(
    `dashboard /home → /site/realtime (every site of the customer, last hour), first chart painted: ${figure(realtime)}; ` +
      `against the site list at p50: ${(percentile(realtime, 0.5) / percentile(dashboardTimes, 0.5)).toFixed(2)}`,
  );
} finally {
  await browser.close();
  await stop(master);
  rmSync(dashboardDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
