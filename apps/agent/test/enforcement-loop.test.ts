import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCert } from '../../master/src/test/certs.ts';
import { type AcceptedAgent, startAcceptedAgent } from './support/accepted-agent.ts';
import { type Answer, edgeRequest, eventually } from './support/http.ts';
import { adminToken, api, MasterProcess } from './support/master-process.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const DOMAIN = 'shop.enforced.test';
// How long a change may take to be served: generous, because a busy machine is slow.
const CHANGE_SERVED_MS = 30_000;
// A package's traffic is counted in whole GB (10^9 bytes): one download a little past it.
const GB = 1_000_000_000;
const CHUNK = Buffer.alloc(1_000_000, 'g');

interface UserPackage {
  id: number;
  state: string;
  traffic_exceeded: boolean;
}

/**
 * A customer's package enforced with no stand-ins: the master from source (its package settlement
 * task, its snapshot), the agent process and Debian's nginx. The package expires or is suspended,
 * its site answers the suspension page on HTTP and on HTTPS (with its own certificate), and
 * renewing or reactivating it serves the site again.
 */
describe('package enforcement through master → agent → nginx', () => {
  let master: MasterProcess;
  let admin: string;
  let customer: string;
  let node: AcceptedAgent | undefined;
  let origin: Origin;
  let userPackage: UserPackage;
  let packageId = 0;
  let certPem = '';
  const ports = { http: 0, https: 0 };

  const request = (tls: boolean, path = '/', language = 'en-US') =>
    edgeRequest(tls ? ports.https : ports.http, {
      host: DOMAIN,
      path,
      tls,
      headers: { 'accept-language': language },
    });
  /** The site as the origin serves it, or throws with what came instead. */
  const served = (answer: Answer) => {
    if (answer.status !== 200) throw new Error(`status ${answer.status} ${answer.body.slice(0, 300)}`);
    return (JSON.parse(answer.body) as { origin: string }).origin;
  };
  // While a reload retires the old workers, both configs answer for a moment: a few answers in a row.
  const steadily = async (check: () => Promise<void>) => {
    for (let i = 0; i < 5; i++) await check();
  };
  const suspendedOnBoth = (text: RegExp) =>
    eventually(
      () =>
        steadily(async () => {
          for (const tls of [false, true]) {
            const answer = await request(tls, '/checkout?item=1');
            expect(answer.status, answer.body.slice(0, 200)).toBe(503);
            expect(answer.body).toMatch(text);
          }
        }),
      CHANGE_SERVED_MS,
      100,
    );
  const servedOnBoth = () =>
    eventually(
      () =>
        steadily(async () => {
          for (const tls of [false, true]) expect(served(await request(tls))).toBe('shop');
        }),
      CHANGE_SERVED_MS,
      100,
    );
  const settle = async () => {
    await api(master, 'POST', '/v1/tasks/scheduled/user-packages/run', admin);
    await eventually(async () => {
      const { list } = await api<{ list: { name: string; running: boolean; last_result: string | null }[] }>(
        master,
        'GET',
        '/v1/tasks/scheduled',
        admin,
      );
      const task = list.find((entry) => entry.name === 'user-packages');
      expect(task?.running).toBe(false);
      expect(task?.last_result).toBe('ok');
    }, CHANGE_SERVED_MS);
  };
  /** Downloads `path` from the site over HTTP, counting the bytes and keeping none. */
  const download = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = httpGet(
        { host: '127.0.0.1', port: ports.http, path, agent: false, headers: { host: DOMAIN, connection: 'close' } },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () => resolve(bytes));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
  const packageNow = () => api<UserPackage>(master, 'GET', `/v1/user-packages/${userPackage.id}`, admin);

  beforeAll(async () => {
    master = new MasterProcess(await freePort(), await mkdtemp(join(tmpdir(), 'rampart-enforce-master-')));
    await master.start();
    admin = await adminToken(master);
    origin = await startOrigin('shop');
    node = await startAcceptedAgent(master, admin, { name: 'enforce' });
    Object.assign(ports, node.ports);

    // The operator's policy, said out loud: inactive packages' sites get the suspension page.
    await api(master, 'PUT', '/v1/configs/global-0-edge-enforcement', admin, { policy: 'suspend', throttle_kbps: 64 });
    packageId = (
      await api<{ id: number }>(master, 'POST', '/v1/packages', admin, {
        name: 'Shop monthly',
        price_month: 1000,
        max_sites: 2,
        max_domains: 2,
        on_sale: true,
      })
    ).id;
    const user = await api<{ id: number }>(master, 'POST', '/v1/users', admin, {
      username: 'shopowner',
      password: 'shop-owner-pass-1',
    });
    const login = await fetch(`${master.url}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'shopowner', password: 'shop-owner-pass-1' }),
    });
    customer = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    await api(master, 'POST', `/v1/user/${user.id}/recharge`, admin, { amount: 10_000 });
    userPackage = await api<UserPackage>(master, 'POST', '/v1/user-packages', customer, { package_id: packageId });
    const cert = makeCert([DOMAIN]);
    certPem = cert.cert;
    const certId = (
      await api<{ id: number }>(master, 'POST', '/v1/certs', customer, { name: 'shop', cert: cert.cert, key: cert.key })
    ).id;
    await api(master, 'POST', '/v1/sites', customer, {
      domains: [DOMAIN],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      http_listen: true,
      https_listen: true,
      cert_id: certId,
    });
  });

  afterAll(async () => {
    await node?.stop();
    await master?.stop();
    await origin?.close();
    if (master?.dataDir) await rm(master.dataDir, { recursive: true, force: true });
  });

  it('serves the site of an active package on HTTP and HTTPS, with its certificate', async () => {
    await servedOnBoth();
    const answer = await request(true);
    expect(answer.cert?.fingerprint256).toBe(new X509Certificate(certPem).fingerprint256);
  });

  it('answers the suspension page on HTTP and HTTPS once the package expires, without asking the origin', async () => {
    await api(master, 'PUT', `/v1/user-packages/${userPackage.id}`, admin, {
      end_at: new Date(Date.now() - 60_000).toISOString(),
    });
    await settle();
    expect(await packageNow()).toMatchObject({ state: 'expired' });
    await suspendedOnBoth(/its package has expired/);
    const before = origin.requests.length;
    for (const tls of [false, true]) {
      const answer = await request(tls, '/any', 'zh-CN,zh;q=0.9');
      expect(answer).toMatchObject({ status: 503 });
      expect(answer.headers['retry-after']).toBe('3600');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.body).toContain('此站点的服务已暂停：其套餐已到期。');
      if (tls) expect(answer.cert?.fingerprint256).toBe(new X509Certificate(certPem).fingerprint256);
    }
    expect(origin.requests.length).toBe(before);
  });

  it('serves the site again on HTTP and HTTPS once the customer renews the package', async () => {
    const renewed = await api<UserPackage>(master, 'PUT', `/v1/user-packages/${userPackage.id}`, customer, {
      renew: { term: 'month' },
    });
    expect(renewed.state).toBe('active');
    await servedOnBoth();
  });

  it('suspends and lifts the site when the operator suspends and reactivates the package', async () => {
    await api(master, 'PUT', '/v1/user-packages', admin, { ids: [userPackage.id], state: 'suspended' });
    await suspendedOnBoth(/suspended by the provider/);
    await api(master, 'PUT', '/v1/user-packages', admin, { ids: [userPackage.id], state: 'active' });
    await servedOnBoth();
  });

  it('answers the suspension page on HTTP and HTTPS once the package’s traffic for the month is used up, and a traffic pack lifts it', async () => {
    await api(master, 'PUT', `/v1/packages/${packageId}`, admin, { traffic_gb: 1 });
    origin.respond((req, res) => {
      if (req.url !== '/gigabyte') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ origin: 'shop' }));
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(GB + CHUNK.length) });
      let sent = 0;
      const more = () => {
        while (sent <= GB) {
          sent += CHUNK.length;
          if (!res.write(CHUNK)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    try {
      expect(await download('/gigabyte')).toBe(GB + CHUNK.length);
      // The edge logs the bytes, the agent ships them, the master counts them; the settlement task
      // then finds the month's traffic used up.
      await eventually(
        async () => {
          await settle();
          expect(await packageNow()).toMatchObject({ state: 'active', traffic_exceeded: true });
        },
        CHANGE_SERVED_MS,
        500,
      );
      await suspendedOnBoth(/traffic for this month is used up/);

      const pack = await api<{ id: number }>(master, 'POST', '/v1/package-ups', admin, {
        name: '+10 GB',
        kind: 'traffic_gb',
        amount: 10,
        price_month: 100,
      });
      await api(master, 'POST', `/v1/user-package/${userPackage.id}/upgrades`, customer, {
        package_up_id: pack.id,
        amount: 1,
      });
      await settle();
      expect(await packageNow()).toMatchObject({ traffic_exceeded: false });
      await servedOnBoth();
    } finally {
      origin.respond(null);
    }
  });
});
