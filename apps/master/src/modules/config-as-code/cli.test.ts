import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CustomerDocument, Site } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { DIALECTS } from '../../test/databases.ts';
import { data, ORIGIN } from '../../test/protection.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const CLI = join(import.meta.dirname, '../../../../../packages/cli/src/rampart.ts');
const sqlite = DIALECTS.filter((target) => target.dialect === 'sqlite');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command-line client against a master listening on a port, as CI runs it. */
describe.each(sqlite)('the rampart command against a master on $dialect', (target) => {
  let test: TestApp;
  let url: string;
  let writeKey: string;
  let readKey: string;
  let alice: string;
  let siteId: number;
  let dir: string;

  const rampart = (args: string[], env: Record<string, string> = {}) =>
    new Promise<Run>((resolve) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        { env: { PATH: process.env.PATH ?? '', RAMPART_URL: url, RAMPART_API_KEY: writeKey, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  const keyOf = async (username: string, scope: 'read' | 'write') => {
    const token = await addUser(test, username);
    return {
      token,
      key: data<{ token: string }>(await test.call('POST', '/v1/api-key', { token, body: { scope } })).token,
    };
  };

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
    url = `${address}/`;
    ({ token: alice, key: writeKey } = await keyOf('alice', 'write'));
    ({ key: readKey } = await keyOf('reader', 'read'));
    siteId = data(
      await test.call('POST', '/v1/sites', {
        token: alice,
        body: {
          domains: ['cli.example.test'],
          origins: [ORIGIN],
          cache_rules: [{ match: 'prefix', value: '/static', ttl: 600 }],
        },
      }),
    ).id;
    dir = mkdtempSync(join(tmpdir(), 'rampart-cli-'));
  });
  afterAll(async () => {
    await test?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exports, plans no change, applies a hand edit with --yes and then plans none', async () => {
    const file = join(dir, 'rampart.yaml');
    expect(await rampart(['export', '--out', file])).toMatchObject({ code: 0, stderr: '' });
    const document = parse(readFileSync(file, 'utf8')) as CustomerDocument;
    expect(document.sites?.map((site) => site.name)).toEqual(['cli.example.test']);
    expect(await rampart(['plan', file, '--detailed-exitcode'])).toEqual({
      code: 0,
      stdout: 'No changes. The configuration matches the document.\n',
      stderr: '',
    });

    const rule = document.sites?.[0]?.settings.cache_rules?.[0];
    if (!rule) throw new Error('the export has no cache rule');
    rule.ttl = 3600;
    document.site_groups = [{ name: 'web' }];
    writeFileSync(file, stringify(document));
    const planned = await rampart(['plan', file, '--detailed-exitcode']);
    expect(planned).toEqual({
      code: 2,
      stdout: [
        '+ site_group "web"',
        '~ site "cli.example.test"',
        '    settings.cache_rules[0].ttl: 600 -> 3600',
        '',
        'Plan: 1 to create, 1 to change, 0 to delete.',
        '',
      ].join('\n'),
      stderr: '',
    });

    // No terminal to ask and no --yes: nothing is applied.
    const unasked = await rampart(['apply', file]);
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toContain('pass --yes');
    const site = () => test.call('GET', `/v1/sites/${siteId}`, { token: alice }).then((result) => data<Site>(result));
    expect((await site()).cache_rules[0]?.ttl).toBe(600);

    const applied = await rampart(['apply', file, '--yes']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/Applied 2 change\(s\) at config version \d+\.\n$/);
    expect((await site()).cache_rules[0]?.ttl).toBe(3600);
    expect((await rampart(['plan', file, '--detailed-exitcode'])).code).toBe(0);

    const json = await rampart(['export', '--format', 'json']);
    expect(JSON.parse(json.stdout)).toEqual(parse(readFileSync(file, 'utf8')));
  });

  it('exits non-zero with the path of an invalid field, a missing key, or a read-only key', async () => {
    const file = join(dir, 'invalid.yaml');
    writeFileSync(
      file,
      stringify({
        version: 1,
        kind: 'rampart/customer',
        sites: [{ name: 'x', settings: { domains: ['x.example.test'], origins: [{ ...ORIGIN, port: 0 }] } }],
      }),
    );
    expect(await rampart(['apply', file, '--yes'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'rampart: sites[0].settings.origins[0].port: must be >= 1\n',
    });
    const missing = await rampart(['plan', file], { RAMPART_API_KEY: '' });
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([
      1,
      'rampart: the API key is missing: pass --api-key or set RAMPART_API_KEY',
    ]);
    const readOnly = await rampart(['plan', file, '--api-key', readKey]);
    expect([readOnly.code, readOnly.stderr]).toEqual([1, 'rampart: this API key is read-only\n']);
    expect((await rampart(['plan', join(dir, 'absent.yaml')])).stderr).toMatch(/^rampart: cannot read .*ENOENT/);
  });
});
