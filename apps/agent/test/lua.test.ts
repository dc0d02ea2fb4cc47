import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LUA_DIR } from '../src/paths.ts';
import { NGINX_BINARY } from './support/edge.ts';

const TESTS = join(LUA_DIR, 'test');

/**
 * Each lua/test/*_test.lua runs in nginx's own LuaJIT as the init_by_lua of a real start (`nginx -t`
 * does not run it): a failed assert stops nginx from starting, with the message in its output.
 */
describe('Lua modules in nginx', async () => {
  const files = (await readdir(TESTS)).filter((name) => name.endsWith('_test.lua'));
  for (const file of files) {
    it(file, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'rampart-lua-'));
      try {
        const conf = join(dir, 'nginx.conf');
        await writeFile(
          conf,
          [
            'load_module /usr/lib/nginx/modules/ndk_http_module.so;',
            'load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;',
            `pid ${join(dir, 'nginx.pid')};`,
            `error_log ${join(dir, 'error.log')} warn;`,
            'events {}',
            'http {',
            `    lua_package_path "${LUA_DIR}/?.lua;;";`,
            // The edge's shared dicts, for the modules that count and ban.
            '    lua_shared_dict rampart_limits 1m;',
            '    lua_shared_dict rampart_bans 1m;',
            `    init_by_lua_file "${join(TESTS, file)}";`,
            '}',
            '',
          ].join('\n'),
        );
        const nginx = (...extra: string[]) =>
          spawnSync(NGINX_BINARY, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log'), ...extra], {
            encoding: 'utf8',
          });
        const run = nginx();
        if (run.status === 0) nginx('-s', 'quit');
        // The loader's refusals are logged on purpose; anything else (a failed assert) is not expected.
        const unexpected = run.stderr
          .split('\n')
          .filter((line) => line !== '' && !line.includes('refused: not the shape'));
        expect(unexpected).toEqual([]);
        expect(run.status).toBe(0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
