import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where nginx/build.sh leaves the module, and the stamp of what it was built for. */
export const FAST_PATH_BUILD_DIR = join(import.meta.dirname, '..', '..', 'nginx', 'build');
const MODULE_FILE = 'ngx_http_rampart_module.so';

/** The last answer, by the files it was read from (nginx -v is asked again only when one changes). */
let last: { key: string; module: string | null } | null = null;

/**
 * The agent's nginx module of the fast path (nginx/ngx_http_rampart_module.c) when it was built for
 * this nginx, else null: nginx refuses a module of another version, and every config would fail its
 * test (a package upgrade of nginx turns the module off until it is built again). `RAMPART_FAST_PATH=
 * off` leaves it out (every request is then routed in Lua).
 */
export function findFastPathModule(
  nginxBinary: string,
  env: NodeJS.ProcessEnv = process.env,
  dir: string = FAST_PATH_BUILD_DIR,
): string | null {
  if (env.RAMPART_FAST_PATH === 'off') return null;
  const module = join(dir, MODULE_FILE);
  const stamp = join(dir, 'stamp');
  if (!existsSync(module) || !existsSync(stamp) || !existsSync(nginxBinary)) return null;
  const key = `${nginxBinary} ${statSync(nginxBinary).mtimeMs} ${stamp} ${statSync(stamp).mtimeMs}`;
  if (last?.key === key) return last.module;
  const built = readFileSync(stamp, 'utf8');
  const version = spawnSync(nginxBinary, ['-v'], { encoding: 'utf8', timeout: 10_000 });
  // `nginx -v` prints to stderr: "nginx version: nginx/1.22.1".
  const running = `${version.stderr ?? ''}${version.stdout ?? ''}`.trim();
  last = { key, module: running !== '' && built.startsWith(`${running} `) ? module : null };
  return last.module;
}
