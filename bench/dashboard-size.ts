// Dashboard figures (issues 3 and 33): the gzip JavaScript the login route and the console shell with
// its first page load from the production build, and the console's first contentful paint as a ratio
// to a bare Vite React page served the same way. Usage: node bench/dashboard-size.ts (after building
// the dashboard: npm run build --workspace apps/dashboard); BENCH_LIST=1 also lists each route's
// scripts, BENCH_DASHBOARD_DIR measures another build. Needs /usr/bin/chromium. routeBudgets() gives
// the two weights to a check script.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { INSIDE_CONSOLE } from '../apps/dashboard/build/firstLoadChunks.ts';
import { freePort, median, ROOT, start, stop, tempDir, waitFor200 } from './support.ts';

/** At most this much gzip JavaScript for /dashboard/login (issue 33). */
export const LOGIN_BUDGET_KB = 150;
/** At most this much for the console shell with the admin's first page, /dashboard/admin-home (issue 33). */
export const CONSOLE_BUDGET_KB = 300;
/** The console's first contentful paint at most this many times a bare Vite React page's (issue 33). */
export const FIRST_PAINT_BUDGET_RATIO = 3;

export interface RouteBudget {
  route: string;
  /** Every script requested until the network went idle, at its gzip size (the login route's budget is of this). */
  gzipKb: number;
  files: number;
  budgetKb: number;
  /** The part requested before the first contentful paint (the rest loads after the page shows). */
  beforePaint: { gzipKb: number; files: number };
  /**
   * The scripts outside the chunks the build makes for what loads after the first screen (chart,
   * table, certificates): the same as `beforePaint` when the page behaves, but decided by the
   * build, not by a race with the paint, so the console's budget is of this.
   */
  firstScreen: { gzipKb: number; files: number };
}

/** A chunk file the build made for a screen that loads after the console's first paint. */
const afterFirstScreen = (file: string): boolean =>
  INSIDE_CONSOLE.has((file.split('/').pop() ?? '').split('-')[0] ?? '');

const DIST = join(ROOT, 'apps/dashboard/dist');
const PASSWORD = 'bench-admin-pass';

interface Master {
  baseUrl: string;
  stop: () => Promise<void>;
}

/** A master on a free port serving `dashboardDir` under /dashboard/. */
const startMaster = async (dashboardDir: string): Promise<Master> => {
  const port = await freePort();
  const child = start(process.execPath, [join(ROOT, 'apps/master/src/server.ts')], {
    RAMPART_PORT: String(port),
    RAMPART_DATA_DIR: tempDir('rampart-bench-'),
    RAMPART_ADMIN_PASSWORD: PASSWORD,
    RAMPART_DASHBOARD_DIR: dashboardDir,
    RAMPART_LOG_LEVEL: 'warn',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor200(`${baseUrl}/v1/common/sysinfo`, performance.now());
  return { baseUrl, stop: () => stop(child) };
};

const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });

/** The admin's token, and the user as the dashboard stores it after a sign-in. */
const signIn = async (baseUrl: string) => {
  const login = await fetch(`${baseUrl}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: PASSWORD }),
  });
  const {
    access_token: token,
    expires_at: _expires,
    ...user
  } = ((await login.json()) as { data: Record<string, unknown> }).data as { access_token: string; expires_at: string };
  return { token, storedUser: JSON.stringify(user) };
};

/** The precompressed size the master sends; the build skips files under 1 kB, gzipped here alike. */
const gzipSize = (path: string): number =>
  existsSync(`${path}.gz`) ? statSync(`${path}.gz`).size : gzipSync(readFileSync(path), { level: 9 }).length;

interface ScriptLoad {
  files: number;
  kB: number;
  /** The part requested before the first contentful paint; the rest came after, until the network went idle. */
  beforePaint: { files: number; kB: number };
  /** Each script's path under the build and its gzip bytes, in the order requested. */
  scripts: [string, number][];
}

/** Loads a page in a fresh context and sums the gzip sizes (from dist) of every script it requested. */
const scriptGzip = async (
  browser: Browser,
  dashboardDir: string,
  url: string,
  ready: (page: Page) => Promise<void>,
  token?: string,
): Promise<ScriptLoad> => {
  const context = await browser.newContext();
  if (token) await context.addCookies([{ name: 'token', value: token, url }]);
  const page = await context.newPage();
  const requested = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') requested.add(new URL(request.url()).pathname);
  });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const beforePaint = new Set(
    await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.POSITIVE_INFINITY;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime <= paint)
        .map((entry) => new URL(entry.name).pathname);
    }),
  );
  await context.close();
  const paths = [...requested];
  const scripts = paths.map((path): [string, number] => {
    const file = path.replace(/^\/dashboard\//, '');
    return [file, gzipSize(join(dashboardDir, file))];
  });
  const early = scripts.filter((_, index) => beforePaint.has(paths[index] ?? ''));
  const sum = (list: [string, number][]) => list.reduce((total, [, bytes]) => total + bytes, 0) / 1024;
  return {
    files: scripts.length,
    kB: sum(scripts),
    beforePaint: { files: early.length, kB: sum(early) },
    scripts,
  };
};

const firstScreen = (load: ScriptLoad) => {
  const scripts = load.scripts.filter(([file]) => !afterFirstScreen(file));
  return { gzipKb: scripts.reduce((total, [, bytes]) => total + bytes, 0) / 1024, files: scripts.length };
};

/** The login route, and the console shell with admin-home signed in, each in a fresh context. */
const measureRoutes = async (browser: Browser, dashboardDir: string, baseUrl: string, token: string) => {
  const login = await scriptGzip(browser, dashboardDir, `${baseUrl}/dashboard/login`, (page) =>
    page.getByRole('button', { name: /Sign in|登录/ }).waitFor(),
  );
  const shell = await scriptGzip(
    browser,
    dashboardDir,
    `${baseUrl}/dashboard/admin-home`,
    (page) => page.getByTestId('admin-home-page').waitFor(),
    token,
  );
  return { login, shell };
};

const assertBuilt = (dashboardDir: string) => {
  if (!existsSync(join(dashboardDir, 'index.html')))
    throw new Error(`no dashboard build in ${dashboardDir}: npm run build --workspace apps/dashboard`);
};

/**
 * The gzip JavaScript of the login route and of the console shell with admin-home, measured as the
 * bench does (every script requested until the network is idle), beside their budgets. Starts a
 * master on the build in `dashboardDir` and a headless Chromium, and stops both.
 */
export async function routeBudgets(dashboardDir = DIST): Promise<RouteBudget[]> {
  assertBuilt(dashboardDir);
  const browser = await launchChromium();
  const master = await startMaster(dashboardDir);
  try {
    const { token } = await signIn(master.baseUrl);
    const routes = await measureRoutes(browser, dashboardDir, master.baseUrl, token);
    const budget = (route: string, load: ScriptLoad, budgetKb: number): RouteBudget => ({
      route,
      gzipKb: load.kB,
      files: load.files,
      budgetKb,
      beforePaint: { gzipKb: load.beforePaint.kB, files: load.beforePaint.files },
      firstScreen: firstScreen(load),
    });
    return [
      budget('login', routes.login, LOGIN_BUDGET_KB),
      budget('console shell + admin-home', routes.shell, CONSOLE_BUDGET_KB),
    ];
  } finally {
    await browser.close();
    await master.stop();
  }
}

/**
 * Median first contentful paint of `url` over fresh contexts, in ms. With `storedUser` the browser
 * holds the user as after a sign-in (the console draws at once); without it the console waits for
 * the session check first.
 */
const firstContentfulPaint = async (
  browser: Browser,
  runs: number,
  url: string,
  token?: string,
  storedUser?: string,
) => {
  const paints: number[] = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    if (token) await context.addCookies([{ name: 'token', value: token, url }]);
    if (storedUser) await context.addInitScript((user) => localStorage.setItem('rampart.user', user), storedUser);
    const page = await context.newPage();
    await page.goto(url);
    paints.push(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const entry = list.getEntriesByName('first-contentful-paint')[0];
              if (entry) resolve(entry.startTime);
            }).observe({ type: 'paint', buffered: true });
          }),
      ),
    );
    await context.close();
  }
  return median(paints);
};

/** A bare Vite React page (one heading), built with the same base path, for the FCP baseline. */
const buildBarePage = async (): Promise<string> => {
  // Inside node_modules so that `react` resolves from the workspace.
  const cache = join(ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const root = mkdtempSync(join(cache, 'rampart-bare-'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="./main.tsx"></script>',
  );
  writeFileSync(
    join(root, 'main.tsx'),
    "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<h1>Rampart</h1>);\n",
  );
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  await build({
    root,
    base: '/dashboard/',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(root, 'dist') },
  });
  return root;
};

const describeLoad = (name: string, load: ScriptLoad, budgetKb: number) => {
  console.log(`${name} JS: ${load.kB.toFixed(1)} kB gzip in ${load.files} files (target ≤ ${budgetKb} kB)`);
  console.log(
    `  of which requested before the first contentful paint: ${load.beforePaint.kB.toFixed(1)} kB in ${load.beforePaint.files} files`,
  );
  const first = firstScreen(load);
  console.log(
    `  of which the first screen (the build's chunks): ${first.gzipKb.toFixed(1)} kB in ${first.files} files`,
  );
  if (process.env.BENCH_LIST)
    for (const [file, bytes] of load.scripts) console.log(`    ${(bytes / 1024).toFixed(1).padStart(6)} kB  ${file}`);
};

async function main() {
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const dashboardDir = process.env.BENCH_DASHBOARD_DIR ?? DIST;
  assertBuilt(dashboardDir);
  const browser = await launchChromium();
  const master = await startMaster(dashboardDir);
  const bareRoot = await buildBarePage();
  const bare = await startMaster(join(bareRoot, 'dist'));
  try {
    const { token, storedUser } = await signIn(master.baseUrl);
    const routes = await measureRoutes(browser, dashboardDir, master.baseUrl, token);
    const consoleUrl = `${master.baseUrl}/dashboard/admin-home`;
    const consolePaint = await firstContentfulPaint(browser, runs, consoleUrl, token, storedUser);
    const checkedPaint = await firstContentfulPaint(browser, runs, consoleUrl, token);
    const barePaint = await firstContentfulPaint(browser, runs, `${bare.baseUrl}/dashboard/`);

    describeLoad('login route', routes.login, LOGIN_BUDGET_KB);
    describeLoad('shell + admin-home', routes.shell, CONSOLE_BUDGET_KB);
    const ratio = (paint: number) => (paint / barePaint).toFixed(2);
    console.log(`first contentful paint (median of ${runs}), bare Vite React page: ${barePaint.toFixed(0)} ms`);
    console.log(
      `  console, signed-in user stored: ${consolePaint.toFixed(0)} ms, ratio ${ratio(consolePaint)} (target ≤ ${FIRST_PAINT_BUDGET_RATIO})`,
    );
    console.log(
      `  console, token only (waits for the session check): ${checkedPaint.toFixed(0)} ms, ratio ${ratio(checkedPaint)}`,
    );
  } finally {
    await browser.close();
    await master.stop();
    await bare.stop();
    rmSync(bareRoot, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
