// Dashboard figures (issue 3): the gzip JavaScript the login route and the console shell with its
// first page load from the production build, and the console's first contentful paint as a ratio to
// a bare Vite React page served the same way. Usage: node bench/dashboard-size.ts (after building
// the dashboard: npm run build --workspace apps/dashboard). Needs /usr/bin/chromium.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { freePort, median, ROOT, start, stop, tempDir, waitFor200 } from './support.ts';

const DIST = join(ROOT, 'apps/dashboard/dist');
const PASSWORD = 'bench-admin-pass';
const FCP_RUNS = Number(process.env.BENCH_RUNS ?? 5);

if (!existsSync(join(DIST, 'index.html')))
  throw new Error('build the dashboard first: npm run build --workspace apps/dashboard');

/** A master on a free port serving `dashboardDir` under /dashboard/. */
const startMaster = async (dashboardDir: string) => {
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

/** The precompressed size the master sends; the build skips files under 1 kB, gzipped here alike. */
const gzipSize = (path: string): number =>
  existsSync(`${path}.gz`) ? statSync(`${path}.gz`).size : gzipSync(readFileSync(path), { level: 9 }).length;

/** Loads a page in a fresh context and sums the gzip sizes (from dist) of every script it requested. */
const scriptGzip = async (browser: Browser, url: string, ready: (page: Page) => Promise<void>, token?: string) => {
  const context = await browser.newContext();
  if (token) await context.addCookies([{ name: 'token', value: token, url }]);
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await context.close();
  let bytes = 0;
  for (const path of scripts) bytes += gzipSize(join(DIST, path.replace(/^\/dashboard\//, '')));
  return { files: scripts.size, kB: bytes / 1024 };
};

/**
 * Median first contentful paint of `url` over fresh contexts, in ms. With `storedUser` the browser
 * holds the user as after a sign-in (the console draws at once); without it the console waits for
 * the session check first.
 */
const firstContentfulPaint = async (browser: Browser, url: string, token?: string, storedUser?: string) => {
  const paints: number[] = [];
  for (let run = 0; run < FCP_RUNS; run++) {
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

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const master = await startMaster(DIST);
const bareRoot = await buildBarePage();
const bare = await startMaster(join(bareRoot, 'dist'));
try {
  const login = await fetch(`${master.baseUrl}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: PASSWORD }),
  });
  const {
    access_token: token,
    expires_at: _expires,
    ...user
  } = ((await login.json()) as { data: Record<string, unknown> }).data as { access_token: string; expires_at: string };

  const loginRoute = await scriptGzip(browser, `${master.baseUrl}/dashboard/login`, (page) =>
    page.getByRole('button', { name: /Sign in|登录/ }).waitFor(),
  );
  const shell = await scriptGzip(
    browser,
    `${master.baseUrl}/dashboard/admin-home`,
    (page) => page.getByTestId('admin-home-page').waitFor(),
    token,
  );
  const consoleUrl = `${master.baseUrl}/dashboard/admin-home`;
  const consolePaint = await firstContentfulPaint(browser, consoleUrl, token, JSON.stringify(user));
  const checkedPaint = await firstContentfulPaint(browser, consoleUrl, token);
  const barePaint = await firstContentfulPaint(browser, `${bare.baseUrl}/dashboard/`);

  console.log(`login route JS: ${loginRoute.kB.toFixed(1)} kB gzip in ${loginRoute.files} files (target ≤ 150 kB)`);
  console.log(`shell + admin-home JS: ${shell.kB.toFixed(1)} kB gzip in ${shell.files} files (target ≤ 300 kB)`);
  const ratio = (paint: number) => (paint / barePaint).toFixed(2);
  console.log(`first contentful paint (median of ${FCP_RUNS}), bare Vite React page: ${barePaint.toFixed(0)} ms`);
  console.log(`  console, signed-in user stored: ${consolePaint.toFixed(0)} ms, ratio ${ratio(consolePaint)}`);
  console.log(
    `  console, token only (waits for the session check): ${checkedPaint.toFixed(0)} ms, ratio ${ratio(checkedPaint)}`,
  );
} finally {
  await browser.close();
  await master.stop();
  await bare.stop();
  rmSync(bareRoot, { recursive: true, force: true });
}
