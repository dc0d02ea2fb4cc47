import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';

const DOWNLOADS = ['/agent/node', '/agent/rampart-agent.tar.gz', '/agent/SHA256SUMS'];

describe.each(DIALECTS)('agent downloads on $dialect', (target) => {
  let test: TestApp;
  let master: string;
  let installToken: string;
  let credential: string;

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    master = await test.app.listen({ host: '127.0.0.1', port: 0 });
    const admin = await test.login('admin', ADMIN_PASSWORD);
    installToken = (
      (await test.call('GET', '/v1/nodes/install-token', { token: admin })).body.data as {
        install_token: string;
      }
    ).install_token;
    // An accepted node, as an agent that upgrades itself holds one.
    const registered = (
      await test.call('POST', '/agent/v1/register', {
        body: { install_token: installToken, hostname: 'edge-1', ips: ['127.0.0.1'], agent_version: '0.1.0' },
      })
    ).body.data as { pending_id: number; poll_secret: string };
    await test.call('POST', '/v1/nodes', {
      token: admin,
      body: { pending_id: registered.pending_id, http_port: 18080 },
    });
    const poll = await test.app.inject({
      method: 'GET',
      url: `/agent/v1/register/${registered.pending_id}`,
      headers: { 'node-secret': registered.poll_secret },
    });
    credential = (poll.json().data as { credential: string }).credential;
    expect(credential).toBeTruthy();
  }, 60_000);
  afterAll(async () => {
    await test.close();
  });

  /** GETs a download, reads only its first chunk and drops the connection: the runtime is over 100 MB. */
  const download = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; type: string; length: string | undefined; first: Buffer }>((done, fail) => {
      const request = get(`${master}${path}`, { headers, agent: false }, (response) => {
        response.once('data', (chunk: Buffer) => {
          request.destroy();
          done({
            status: response.statusCode ?? 0,
            type: response.headers['content-type'] ?? '',
            length: response.headers['content-length'],
            first: chunk,
          });
        });
      });
      request.on('error', fail);
    });

  it('refuses an anonymous download with 401 and streams nothing of the file', async () => {
    for (const path of DOWNLOADS) {
      const answer = await download(path);
      expect(answer.status, path).toBe(401);
      expect(answer.type, path).toContain('application/json');
      expect(Number(answer.length), path).toBeLessThan(300);
      expect(JSON.parse(answer.first.toString()), path).toMatchObject({ code: 'login_required', data: null });
    }
  });

  it('refuses a wrong install token or an unknown node credential with 401', async () => {
    const wrong = installToken.replace(/^./, (digit) => (digit === '0' ? '1' : '0'));
    const attempts: Record<string, string>[] = [
      { 'install-token': wrong },
      { 'install-token': '' },
      { 'install-token': 'é'.repeat(installToken.length) },
      { 'node-token': 'f'.repeat(48) },
    ];
    for (const path of DOWNLOADS) {
      for (const headers of attempts) {
        const answer = await download(path, headers);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(JSON.parse(answer.first.toString())).toMatchObject({ code: 'login_required' });
      }
    }
  });

  it('serves the runtime, bundle and sums to the install token', { timeout: 120_000 }, async () => {
    const node = await download('/agent/node', { 'install-token': installToken });
    expect(node.status).toBe(200);
    expect(node.type).toBe('application/octet-stream');
    expect(node.first.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    const bundle = await download('/agent/rampart-agent.tar.gz', { 'install-token': installToken });
    expect(bundle.status).toBe(200);
    expect([...bundle.first.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const sums = await download('/agent/SHA256SUMS', { 'install-token': installToken });
    expect(sums.status).toBe(200);
    expect(sums.first.toString()).toMatch(/^[0-9a-f]{64} {2}rampart-agent\.tar\.gz\n[0-9a-f]{64} {2}node\n$/);
  });

  it('serves the runtime and bundle to an accepted node by its credential', { timeout: 120_000 }, async () => {
    for (const path of DOWNLOADS) {
      expect((await download(path, { 'node-token': credential })).status, path).toBe(200);
    }
  });
});
