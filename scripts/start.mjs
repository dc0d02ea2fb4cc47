// `npm start`: builds the dashboard when its build is missing or older than its sources, then runs
// the master from the repository root (so the default data directory is ./data).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dashboard = join(import.meta.dirname, '../apps/dashboard');
const built = join(dashboard, 'dist/index.html');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const stale =
  !existsSync(built) ||
  Math.max(newestSource(join(dashboard, 'src')), statSync(join(dashboard, 'index.html')).mtimeMs) >
    statSync(built).mtimeMs;
if (stale && !process.env.RAMPART_DASHBOARD_DIR) {
  console.log('building the dashboard…');
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  const { status } = spawnSync(command, [...args, 'run', 'build', '--workspace', 'apps/dashboard'], {
    stdio: 'inherit',
  });
  if (status !== 0) process.exit(status ?? 1);
}

await import('../apps/master/src/server.ts');
