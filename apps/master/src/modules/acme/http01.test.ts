import { createServer, type Server } from 'node:net';
import { type Cert, type EdgeSnapshot, NODE_TOKEN_HEADER } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledCert, useAcmeTestServers } from '../../test/acme.ts';
import { DIALECTS } from '../../test/databases.ts';
import { startEdgeStandIn } from '../../test/edge-stand-in.ts';
import { freePort, type Pebble, startPebble } from '../../test/pebble.ts';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashToken } from '../auth/tokens.ts';
import { saveSetting } from '../settings/settings.service.ts';

const NODE_CREDENTIAL = 'node-credential-0123456789abcdef';
const origins = [{ address: '127.0.0.1', port: 8081, weight: 1, backup: false }];

/**
 * HTTP-01 before the ACME server is asked: the domain must reach the edges, and every online edge
 * must have taken the challenge. (The full loop through a real agent and nginx is apps/agent/test/acme.test.ts.)
 */
describe('ACME HTTP-01 through the edges', () => {
  let pdns: PowerDns;
  let pebble: Pebble;
  let edgePort: number;
  // The edge's port stays bound between the tests that serve on it: another process of the run
  // taking it in between made the stand-in fail with EADDRINUSE.
  let holder: Server | undefined;
  const holdEdgePort = () =>
    new Promise<void>((done, fail) => {
      const server = createServer();
      server.once('error', fail);
      server.listen(edgePort, '127.0.0.1', () => {
        holder = server;
        done();
      });
    });
  const releaseEdgePort = () =>
    new Promise<void>((done) => {
      const server = holder;
      holder = undefined;
      if (server) server.close(() => done());
      else done();
    });
  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone('web.test');
    await pdns.createZone('cdn.rampart.test');
    edgePort = await freePort();
    await holdEdgePort();
    pebble = await startPebble({ dnsServer: pdns.dnsAddress, httpPort: edgePort });
  });
  afterAll(async () => {
    await releaseEdgePort();
    await pebble?.close();
    await pdns?.close();
  });

  describe.each(DIALECTS)('on $dialect', (target) => {
    let test: TestApp;
    let alice: string;
    let cname: string;
    const host = (name: string) => `${name}-${target.dialect}.web.test`;
    const request = async (domain: string) => {
      const started = await test.call('POST', '/v1/certs', {
        token: alice,
        body: { type: 'acme', domains: [domain], challenge: 'http-01' },
      });
      expect(started.body.code, started.body.msg).toBe(0);
      return (started.body.data as Cert).id;
    };
    const snapshot = async () => {
      const answer = await test.app.inject({
        method: 'GET',
        url: '/agent/v1/config?version=0&wait=0',
        headers: { [NODE_TOKEN_HEADER]: NODE_CREDENTIAL },
      });
      return (answer.json() as { data: { snapshot: EdgeSnapshot } }).data.snapshot;
    };

    beforeAll(async () => {
      test = await startTestApp(target, { env: { RAMPART_ACME_CA_FILE: pebble.caFile } });
      await useAcmeTestServers(test, pebble, pdns.dnsAddress);
      await saveSetting(test.database.db, 'acme_edge_wait_seconds', 1);
      const admin = await test.login('admin', ADMIN_PASSWORD);
      await test.call('POST', '/v1/cname-domains', {
        token: admin,
        body: { domain: 'cdn.rampart.test', is_default: true },
      });
      alice = await addUser(test, 'alice');
      const site = await test.call('POST', '/v1/sites', {
        token: alice,
        body: { domains: [host('nowhere'), host('pointed')], origins },
      });
      cname = (site.body.data as { cname: string }).cname;
      await pdns.setRecords('web.test', host('pointed'), 'CNAME', [`${cname}.`]);
      await pdns.setRecords('cdn.rampart.test', cname, 'A', ['127.0.0.1']);
    });
    afterAll(async () => {
      await test?.close();
    });

    it('says so when the domain does not resolve to the site’s CNAME, before asking the ACME server', async () => {
      const cert = await settledCert(test, alice, await request(host('nowhere')));
      expect(cert).toMatchObject({ status: 'failed', progress: 'order' });
      expect(cert.error).toBe(
        `${host('nowhere')} does not resolve to the CNAME ${cname} (it does not exist in DNS); point it there, then issue again: HTTP-01 validation reaches the domain through the edges`,
      );
    });

    it('needs an online edge to answer the challenge', async () => {
      const cert = await settledCert(test, alice, await request(host('pointed')));
      expect(cert).toMatchObject({ status: 'failed', progress: 'challenge' });
      expect(cert.error).toBe(
        'no edge node is online to answer the HTTP-01 challenge; use DNS-01 or bring an edge online',
      );
    });

    it('hands the challenge to the edges in their snapshot, and names an edge that does not take it in time', async () => {
      const now = Date.now();
      await test.database.db
        .insertInto('nodes')
        .values({
          name: 'edge-slow',
          ips: '["127.0.0.1"]',
          group_id: null,
          region_id: null,
          enabled: 1,
          http_port: 80,
          https_port: 443,
          max_cache_size_mb: 1024,
          credential_hash: hashToken(NODE_CREDENTIAL),
          applied_version: 0,
          last_seen_at: now,
          last_error: '',
          dropped_log_lines: 0,
          agent_version: 'test',
          created_at: now,
          updated_at: now,
        })
        .execute();
      expect((await snapshot()).acme_challenges).toEqual([]);
      const id = await request(host('pointed'));
      let seen: EdgeSnapshot['acme_challenges'] = [];
      // Until the order is placed (slow on a loaded machine); the challenge then stays for 1 s.
      for (const deadline = Date.now() + 15_000; Date.now() < deadline && seen.length === 0; ) {
        seen = (await snapshot()).acme_challenges;
        if (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toHaveLength(1);
      expect(seen[0]?.key_authorization.startsWith(`${seen[0]?.token}.`)).toBe(true);
      const cert = await settledCert(test, alice, id);
      expect(cert).toMatchObject({ status: 'failed', progress: 'challenge' });
      expect(cert.error).toBe(
        'edge node(s) edge-slow did not take the HTTP-01 challenge within 1 s; check the nodes page',
      );
      expect((await snapshot()).acme_challenges).toEqual([]);
    });

    it('issues once the edge serves the challenge from its snapshot', async () => {
      await saveSetting(test.database.db, 'acme_edge_wait_seconds', 10);
      await releaseEdgePort();
      const edge = await startEdgeStandIn(test.app, NODE_CREDENTIAL, edgePort);
      try {
        const cert = await settledCert(test, alice, await request(host('pointed')));
        expect(cert, cert.error).toMatchObject({ status: 'issued', names: [host('pointed')] });
        expect(edge.answered.length).toBeGreaterThan(0);
        expect((await snapshot()).acme_challenges).toEqual([]);
      } finally {
        await edge.close();
        await holdEdgePort();
      }
    });
  });
});
