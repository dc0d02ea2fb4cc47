// `npm run screenshots`: a PNG of every console page and the public pages, as the admin and as a
// customer, in zh-CN and en-US, at 1440×900, in screenshots/ with an index.html linking them. A
// fresh master with demo data (e2e/support/demo.ts) serves them; the dashboard is built first when
// its build is missing or older than its sources (unless RAMPART_DASHBOARD_DIR names a build).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { launchBrowser } from './support/browser.ts';
import { type DemoRole, seedDemo } from './support/demo.ts';
import { startMaster } from './support/master.ts';
import { CHECK_LANGUAGES, type Language, PUBLIC_PATHS, pagePaths, settle } from './support/page-check.ts';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'screenshots');
const DASHBOARD = join(ROOT, 'apps/dashboard');

const newestSource = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    }),
  );

function buildDashboardIfStale() {
  if (process.env.RAMPART_DASHBOARD_DIR) return;
  const built = join(DASHBOARD, 'dist/index.html');
  if (existsSync(built) && newestSource(join(DASHBOARD, 'src')) <= statSync(built).mtimeMs) return;
  console.log('building the dashboard…');
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const { status } = spawnSync(process.execPath, [vite, 'build'], { cwd: DASHBOARD, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

interface Shot {
  role: string;
  language: Language;
  path: string;
  file: string;
}

const fileName = (role: string, language: Language, path: string) =>
  `${role}-${language}${path.replaceAll('/', '-') || '-root'}.png`;

function indexHtml(shots: readonly Shot[]): string {
  const html = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  const sections = [...new Set(shots.map((shot) => `${shot.role} ${shot.language}`))].map((key) => {
    const items = shots
      .filter((shot) => `${shot.role} ${shot.language}` === key)
      .map(
        (shot) =>
          `<figure><a href="${html(shot.file)}"><img src="${html(shot.file)}" loading="lazy" alt="${html(shot.path)}"></a><figcaption>${html(shot.path)}</figcaption></figure>`,
      );
    return `<h2>${html(key)}</h2>\n<div class="grid">${items.join('\n')}</div>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rampart screenshots</title>
<style>body{font:14px system-ui;margin:24px}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(360px,1fr));gap:16px}
figure{margin:0}img{width:100%;border:1px solid #ddd}figcaption{color:#555}</style></head>
<body><h1>Rampart screenshots</h1><p>${shots.length} pages, taken ${new Date().toISOString()}.</p>
${sections.join('\n')}
</body></html>
`;
}

async function main() {
  buildDashboardIfStale();
  const master = await startMaster();
  const browser = await launchBrowser();
  const shots: Shot[] = [];
  try {
    const demo = await seedDemo(master);
    await rm(OUT, { recursive: true, force: true });
    await mkdir(OUT, { recursive: true });
    const shoot = async (role: DemoRole | null, language: Language) => {
      const context = await browser.newContext({
        baseURL: master.baseUrl,
        locale: language,
        reducedMotion: 'reduce',
        viewport: { width: 1440, height: 900 },
      });
      try {
        if (role) await context.addCookies([{ name: 'token', value: role.token, url: master.baseUrl }]);
        const page = await context.newPage();
        const paths = role ? pagePaths(role.viewer, demo.params) : PUBLIC_PATHS;
        const name = role?.name ?? 'public';
        for (const path of paths) {
          await page.goto(`${master.baseUrl}/dashboard${path}`);
          await settle(page, { publicPage: role === null }).catch((error: Error) =>
            console.warn(`${name} ${language} ${path}: ${error.message}`),
          );
          const file = fileName(name, language, path);
          await page.screenshot({ path: join(OUT, file) });
          shots.push({ role: name, language, path, file });
          console.log(`${file}`);
        }
      } finally {
        await context.close();
      }
    };
    for (const language of CHECK_LANGUAGES) {
      await shoot(null, language);
      await shoot(demo.admin, language);
      await shoot(demo.customer, language);
    }
    await writeFile(join(OUT, 'index.html'), indexHtml(shots));
    console.log(`${shots.length} screenshots and index.html in ${OUT}`);
  } finally {
    await browser.close();
    await master.stop();
  }
}

await main();
