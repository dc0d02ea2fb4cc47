import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';

/** Runs the script as `curl … | bash -s -- args` would, from its text. */
const runScript = (script: string, args: string[]) =>
  new Promise<{ code: number | null; out: string; err: string }>((done) => {
    const child = spawn('bash', ['-s', '--', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('close', (code) => done({ code, out, err }));
    child.stdin.end(script);
  });

describe('the agent install script', () => {
  let test: TestApp;
  let master: string;
  let admin: string;
  let token: string;
  const root = mkdtempSync(join(tmpdir(), 'rampart-install-root-'));
  let agent: ChildProcess | undefined;

  beforeAll(async () => {
    test = await startTestApp({ dialect: 'sqlite' }, { background: false });
    master = await test.app.listen({ host: '127.0.0.1', port: 0 });
    admin = await test.login('admin', ADMIN_PASSWORD);
    token = (
      (await test.call('GET', '/v1/nodes/install-token', { token: admin })).body.data as { install_token: string }
    ).install_token;
  });
  afterAll(async () => {
    agent?.kill('SIGKILL');
    await test.close();
    rmSync(root, { recursive: true, force: true });
  });

  const script = async () => {
    const response = await fetch(`${master}/agent/install.sh`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/x-shellscript');
    return response.text();
  };

  it('is served with this master as its default, and passes shellcheck', async () => {
    const text = await script();
    expect(text).toContain(`MASTER='${master}'`);
    const check = spawnSync('shellcheck', ['-s', 'bash', '-'], { input: text, encoding: 'utf8' });
    expect(check.error, 'shellcheck must be installed (.ci/run installs it)').toBeUndefined();
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
    // A Host that is not a plain address never becomes part of the script.
    const odd = await test.app.inject({ method: 'GET', url: '/agent/install.sh', headers: { host: "a.test'$(id)" } });
    expect(odd.body).toContain("MASTER=''");
    expect(odd.body).not.toContain('$(id)');
  });

  it('refuses a missing or malformed token and master, naming the option', async () => {
    const text = await script();
    for (const [args, message] of [
      [[], '--token: give the cluster install token'],
      [['--token', 'not-hex!'], '--token: give the cluster install token'],
      [['--token', token, '--master', 'http://a.test/x;id'], '--master: an http(s) address'],
      [['--token', token, '--master', 'http://a.test,'], 'or several separated by commas'],
      [['--token', token, '--master', 'http://a.test, http://b.test'], '--master: an http(s) address'],
      [['--token', token, '--master', 'http://a.test,https://b.test,http://A.test'], '--master: each master once'],
      [['--token', token, '--master', 'https://a.test:443,https://b.test,https://a.test'], 'each master once'],
      [
        ['--token', token, '--master', Array.from({ length: 17 }, (_, i) => `https://m${i}.test`).join(',')],
        '--master: at most 16 masters',
      ],
      [['--token', token, '--root', join(root, 'missing')], '--root:'],
      [['--token', token, '--colour'], 'unknown option --colour'],
    ] as const) {
      const result = await runScript(text, [...args]);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.err).toContain(message);
    }
  });

  it('installs into a throwaway root: checked bundle, runtime, unit; the installed agent registers as a pending node', {
    timeout: 180_000,
  }, async () => {
    const result = await runScript(await script(), ['--token', token, '--root', root]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('would run: apt-get update');
    expect(result.out).toMatch(
      /would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y nginx libnginx-mod-http-lua/,
    );
    expect(result.out).toContain('would run: systemctl enable --now rampart-agent');

    const prefix = join(root, 'opt/rampart-agent');
    const node = join(prefix, 'node/bin/node');
    expect(statSync(node).mode & 0o777).toBe(0o755);
    expect(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(process.version);
    expect(existsSync(join(prefix, 'apps/agent/src/main.ts'))).toBe(true);
    expect(existsSync(join(prefix, 'apps/agent/lua/rampart/routes.lua'))).toBe(true);
    // The fast path's nginx module comes as source, built on the node for its own nginx.
    expect(existsSync(join(prefix, 'apps/agent/nginx/ngx_http_rampart_module.c'))).toBe(true);
    expect(existsSync(join(prefix, 'apps/agent/nginx/build'))).toBe(false);
    expect(result.out).toContain(`would run: bash ${join(prefix, 'apps/agent/nginx/build.sh')}`);
    expect(existsSync(join(prefix, 'node_modules/@rampart/contracts/src/index.ts'))).toBe(true);
    expect(existsSync(join(prefix, 'packages/contracts/src/index.ts'))).toBe(true);
    expect(existsSync(join(prefix, 'apps/agent/src/options.test.ts'))).toBe(false);
    const unit = readFileSync(join(root, 'etc/systemd/system/rampart-agent.service'), 'utf8');
    expect(unit).toContain(
      `ExecStart=/opt/rampart-agent/node/bin/node /opt/rampart-agent/apps/agent/src/main.ts --master ${master} --token ${token} --data-dir /var/lib/rampart-agent`,
    );
    expect(statSync(join(root, 'var/lib/rampart-agent')).mode & 0o777).toBe(0o700);

    // The installed tree runs: the agent registers with the token and waits to be accepted.
    agent = spawn(
      node,
      [
        join(prefix, 'apps/agent/src/main.ts'),
        '--master',
        master,
        '--token',
        token,
        '--data-dir',
        join(root, 'var/lib/rampart-agent'),
      ],
      { stdio: 'ignore' },
    );
    await expect
      .poll(
        async () =>
          ((await test.call('GET', '/v1/pending-nodes', { token: admin })).body.data as { total: number }).total,
        { timeout: 60_000, interval: 250 },
      )
      .toBe(1);

    // Run again: the previous agent is kept beside the new one.
    const again = await runScript(await script(), ['--token', token, '--root', root]);
    expect(again.code).toBe(0);
    expect(existsSync(join(root, 'opt/rampart-agent.previous/apps/agent/src/main.ts'))).toBe(true);
  });

  it('stops when the master refuses its token for the downloads', async () => {
    const other = mkdtempSync(join(tmpdir(), 'rampart-install-root-'));
    try {
      const result = await runScript(await script(), ['--token', 'ab'.repeat(24), '--root', other]);
      expect(result.code).toBe(1);
      expect(result.err).toContain('401');
      expect(result.err).toContain(`could not download ${master}/agent/SHA256SUMS`);
      expect(existsSync(join(other, 'opt/rampart-agent'))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('downloads from the first master of a list that answers, and starts the agent with the whole list', async () => {
    const { createHash } = await import('node:crypto');
    const { createServer } = await import('node:http');
    const bundle = await fetch(`${master}/agent/rampart-agent.tar.gz`, { headers: { 'install-token': token } }).then(
      (response) => response.arrayBuffer(),
    );
    const files = new Map<string, Buffer>([
      ['rampart-agent.tar.gz', Buffer.from(new Uint8Array(bundle))],
      ['node', Buffer.from('#!/bin/sh\n')],
    ]);
    const sums = [...files].map(([name, bytes]) => `${createHash('sha256').update(bytes).digest('hex')}  ${name}\n`);
    files.set('SHA256SUMS', Buffer.from(sums.join('')));
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(`${request.url} ${request.headers['install-token']}`);
      response.end(files.get((request.url ?? '').replace('/agent/', '')));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    const standIn = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    // Nothing listens on port 1: the first master does not answer.
    const masters = `http://127.0.0.1:1,${standIn}`;
    const other = mkdtempSync(join(tmpdir(), 'rampart-install-root-'));
    try {
      const result = await runScript(await script(), ['--token', token, '--root', other, '--master', masters]);
      expect(result.code).toBe(0);
      expect(result.err).toContain('could not download http://127.0.0.1:1/agent/SHA256SUMS');
      expect(result.out).toContain(`Downloading the agent from ${standIn}`);
      expect(asked.sort()).toEqual(
        ['/agent/SHA256SUMS', '/agent/node', '/agent/rampart-agent.tar.gz'].map((path) => `${path} ${token}`),
      );
      const unit = readFileSync(join(other, 'etc/systemd/system/rampart-agent.service'), 'utf8');
      expect(unit).toContain(`src/main.ts --master ${masters} --token ${token} --data-dir /var/lib/rampart-agent`);
    } finally {
      server.close();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('sends the install token with every download, and refuses a bundle that does not match the sums', async () => {
    // Serve the real script against a stand-in master whose SHA256SUMS do not match its files.
    const { createServer } = await import('node:http');
    const bundle = await fetch(`${master}/agent/rampart-agent.tar.gz`, { headers: { 'install-token': token } }).then(
      (response) => response.arrayBuffer(),
    );
    const tokens = new Map<string, unknown>();
    const server = createServer((request, response) => {
      tokens.set(request.url ?? '', request.headers['install-token']);
      if (request.url === '/agent/SHA256SUMS')
        response.end(`${'0'.repeat(64)}  rampart-agent.tar.gz\n${'0'.repeat(64)}  node\n`);
      else if (request.url === '/agent/rampart-agent.tar.gz') response.end(Buffer.from(bundle));
      else response.end('node');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const other = mkdtempSync(join(tmpdir(), 'rampart-install-root-'));
    try {
      const result = await runScript(await script(), [
        '--token',
        token,
        '--root',
        other,
        '--master',
        `http://127.0.0.1:${port}`,
      ]);
      expect(result.code).toBe(1);
      expect(result.err).toContain("the download does not match the master's SHA256SUMS");
      expect(existsSync(join(other, 'opt/rampart-agent'))).toBe(false);
      expect(Object.fromEntries(tokens)).toEqual({
        '/agent/SHA256SUMS': token,
        '/agent/rampart-agent.tar.gz': token,
        '/agent/node': token,
      });
    } finally {
      server.close();
      rmSync(other, { recursive: true, force: true });
    }
  });
});
