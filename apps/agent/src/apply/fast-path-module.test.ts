import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findFastPathModule } from './fast-path-module.ts';

describe('findFastPathModule', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A build directory, and an `nginx` that prints `version` as nginx -v does (to stderr). */
  const setup = (stamp: string | null, version: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'rampart-fast-'));
    dirs.push(dir);
    const build = join(dir, 'build');
    const nginx = join(dir, `nginx-${dirs.length}`);
    writeFileSync(nginx, `#!/bin/sh\necho '${version}' >&2\n`);
    chmodSync(nginx, 0o755);
    if (stamp !== null) {
      mkdirSync(build);
      writeFileSync(join(build, 'ngx_http_rampart_module.so'), '');
      writeFileSync(join(build, 'stamp'), `${stamp}\n`);
    }
    return { nginx, build };
  };

  it('takes a module built for the running nginx', () => {
    const { nginx, build } = setup('nginx version: nginx/1.22.1 0123456789abcdef', 'nginx version: nginx/1.22.1');
    expect(findFastPathModule(nginx, {}, build)).toBe(join(build, 'ngx_http_rampart_module.so'));
    expect(findFastPathModule(nginx, { RAMPART_FAST_PATH: 'off' }, build)).toBeNull();
  });

  it('refuses a module built for another nginx, and a build that is not there', () => {
    const other = setup('nginx version: nginx/1.22.1 0123456789abcdef', 'nginx version: nginx/1.26.0');
    expect(findFastPathModule(other.nginx, {}, other.build)).toBeNull();
    const none = setup(null, 'nginx version: nginx/1.22.1');
    expect(findFastPathModule(none.nginx, {}, none.build)).toBeNull();
  });
});
