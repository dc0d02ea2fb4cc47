// What a browser test costs the machine (issue 15): the CPU time (all processes, from /proc/stat)
// and wall time of loading console pages in headless Chromium, against a baseline of loading a
// trivial document the same way, and what a master's start costs. The e2e stage keeps both cores
// busy, so its time is its CPU work: these are the parts of it. Usage (after
// `npm run build --workspace apps/dashboard`): node bench/browser-cost.ts. Needs /usr/bin/chromium.
// BENCH_ROUNDS (default 4) rounds of five pages, each round in a fresh browser context.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser.ts';
import { freePort, ROOT, start, stop, tempDir, waitFor200 } from './support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PASSWORD = 'bench-Admin-Pass-1';
const PAGES = ['/admin-home', '/site/list', '/node/list', '/sys/user', '/site/cert'];

/** CPU seconds the whole machine has spent (user, nice, system, irq, softirq). */
const machineCpu = () => {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq) / 100;
};

const measure = async (work: () => Promise<void>) => {
  const cpu = machineCpu();
  const started = performance.now();
  await work();
  return { wall: (performance.now() - started) / 1000, cpu: machineCpu() - cpu };
};

const startMaster = async () => {
  const port = await freePort();
  const child = start(process.execPath, [join(ROOT, 'apps/master/src/server.ts')], {
    RAMPART_PORT: String(port),
    RAMPART_DATA_DIR: tempDir('rampart-bench-'),
    RAMPART_ADMIN_PASSWORD: PASSWORD,
    RAMPART_LOG_LEVEL: 'warn',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor200(`${baseUrl}/v1/common/sysinfo`, performance.now());
  return { baseUrl, child };
};

/** A master's start to its first answer: wall time and the CPU of its process. */
const masterStart = async () => {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'apps/master/src/server.ts')], {
    env: { ...process.env, RAMPART_PORT: String(port), RAMPART_DATA_DIR: tempDir('rampart-bench-') },
    stdio: 'ignore',
  });
  await waitFor200(`http://127.0.0.1:${port}/v1/common/sysinfo`, started);
  const wall = (performance.now() - started) / 1000;
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const cpu = (Number(stat[11]) + Number(stat[12])) / 100;
  await stop(child);
  return { wall, cpu };
};

const pageLoads = async (browser: Browser, baseUrl: string, token: string, path: (page: string) => string | null) =>
  measure(async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const context = await browser.newContext({ baseURL: baseUrl, locale: 'en-US', reducedMotion: 'reduce' });
      await context.addCookies([{ name: 'token', value: token, url: baseUrl }]);
      const page = await context.newPage();
      for (const name of PAGES) {
        const target = path(name);
        if (target) {
          await page.goto(target);
        } else {
          await page.goto(`${baseUrl}/dashboard${name}`);
          await page.getByTestId('header').waitFor();
          await page.getByRole('menuitem').first().waitFor();
        }
      }
      await context.close();
    }
  });

const master = await startMaster();
const login = await fetch(`${master.baseUrl}/v1/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ account: 'admin', password: PASSWORD }),
});
const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
const browser = await launchBrowser();

const loads = ROUNDS * PAGES.length;
const idle = await measure(() => new Promise((done) => setTimeout(done, 5000)));
const contexts = await measure(async () => {
  for (let i = 0; i < 10; i++) {
    const context = await browser.newContext();
    await context.newPage();
    await context.close();
  }
});
const trivial = await pageLoads(browser, master.baseUrl, token, () => `${master.baseUrl}/dashboard/favicon.svg`);
const consolePages = await pageLoads(browser, master.baseUrl, token, () => null);
await browser.close();
await stop(master.child);
const starts = [await masterStart(), await masterStart(), await masterStart()];

const row = (label: string, { wall, cpu }: { wall: number; cpu: number }, per: number) =>
  `| ${label} | ${(wall / per).toFixed(2)} s | ${(cpu / per).toFixed(2)} s |`;
console.log(`machine idle: ${(idle.cpu / idle.wall).toFixed(2)} CPU-s per second`);
console.log('| what (per item) | wall | CPU, all processes |\n|---|---|---|');
console.log(row('browser context and page, made and closed', contexts, 10));
console.log(row(`trivial document in a fresh context per ${PAGES.length} (${loads} loads)`, trivial, loads));
console.log(row(`console page in a fresh context per ${PAGES.length} (${loads} loads)`, consolePages, loads));
const average = (key: 'wall' | 'cpu') => starts.reduce((sum, start) => sum + start[key], 0) / starts.length;
console.log(
  `| master start to first answer (3 starts; CPU of its process) | ${average('wall').toFixed(2)} s | ${average('cpu').toFixed(2)} s |`,
);
console.log(`console page / trivial document, CPU: ${(consolePages.cpu / trivial.cpu).toFixed(2)}`);
