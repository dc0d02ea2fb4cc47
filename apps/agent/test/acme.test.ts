import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cert, Site } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../master/src/db/database.ts';
import { saveSetting } from '../../master/src/modules/settings/settings.service.ts';
import { type Pebble, startPebble } from '../../master/src/test/pebble.ts';
import { type PowerDns, startPowerDns } from '../../master/src/test/powerdns.ts';
import { type AcceptedAgent, startAcceptedAgent } from './support/accepted-agent.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { adminToken, api, MasterProcess } from './support/master-process.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const DOMAIN = 'www.acme.test';

/**
 * HTTP-01 for real: the master puts the challenge into the snapshot, the agent's nginx answers
 * /.well-known/acme-challenge/ on its HTTP port, pebble (resolving the domain through a real
 * PowerDNS to 127.0.0.1) fetches it there and issues; the edge then serves the certificate.
 */
describe('ACME HTTP-01 through master → agent → nginx', () => {
  let pdns: PowerDns;
  let pebble: Pebble;
  let master: MasterProcess;
  let admin: string;
  let node: AcceptedAgent | undefined;
  let origin: Origin;
  let site: Site;
  const ports = { http: 0, https: 0 };

  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone('acme.test');
    await pdns.createZone('cdn.test');
    ports.http = await freePort();
    ports.https = await freePort();
    pebble = await startPebble({ dnsServer: pdns.dnsAddress, httpPort: ports.http });
    // The master trusts pebble's HTTPS certificate through its documented variable, inherited here.
    process.env.RAMPART_ACME_CA_FILE = pebble.caFile;
    master = new MasterProcess(await freePort(), await mkdtemp(join(tmpdir(), 'rampart-acme-master-')));
    await master.start();
    admin = await adminToken(master);
    const settings = openDatabase({ dataDir: master.dataDir });
    try {
      await saveSetting(settings.db, 'acme_directory_url', pebble.directoryUrl);
      await saveSetting(settings.db, 'dns_resolver', pdns.dnsAddress);
      await saveSetting(settings.db, 'acme_edge_wait_seconds', 20);
    } finally {
      await settings.close();
    }
    await api(master, 'POST', '/v1/cname-domains', admin, { domain: 'cdn.test', is_default: true });

    origin = await startOrigin('acme-origin');
    node = await startAcceptedAgent(master, admin, { name: 'acme', ports, ips: ['127.0.0.1'] });
    await eventually(async () => {
      const { list } = await api<{ list: { applied_version: number }[] }>(master, 'GET', '/v1/nodes', admin);
      expect(list[0]?.applied_version).toBeGreaterThan(0);
    }, 15_000);

    site = await api<Site>(master, 'POST', '/v1/sites', admin, {
      domains: [DOMAIN],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
    });
    // The customer's DNS: the domain is a CNAME of the site's target, which leads to the edge.
    await pdns.setRecords('acme.test', DOMAIN, 'CNAME', [`${site.cname}.`]);
    await pdns.setRecords('cdn.test', site.cname, 'A', ['127.0.0.1']);
  });

  afterAll(async () => {
    await node?.stop();
    await master?.stop();
    await origin?.close();
    await pebble?.close();
    await pdns?.close();
    if (master?.dataDir) await rm(master.dataDir, { recursive: true, force: true });
    delete process.env.RAMPART_ACME_CA_FILE;
  });

  it('issues a certificate validated through the edge, and the edge then serves it over HTTPS', async () => {
    const started = await api<Cert>(master, 'POST', '/v1/certs', admin, {
      type: 'acme',
      domains: [DOMAIN],
      challenge: 'http-01',
    });
    expect(started).toMatchObject({ status: 'issuing', challenge: 'http-01' });
    const cert = await eventually(
      async () => {
        const current = await api<Cert>(master, 'GET', `/v1/certs/${started.id}`, admin);
        if (current.status === 'issuing') throw new Error(`still at ${current.progress}`);
        return current;
      },
      60_000,
      250,
    );
    expect(cert, cert.error).toMatchObject({ status: 'issued', progress: 'stored', names: [DOMAIN] });
    expect(cert.issuer).toMatch(/Pebble/);

    await api(master, 'PUT', `/v1/sites/${site.id}`, admin, { https_listen: true, cert_id: cert.id });
    await eventually(
      async () => {
        const answer = await edgeRequest(ports.https, { host: DOMAIN, tls: true });
        expect(answer.status).toBe(200);
        expect(answer.cert?.subjectaltname).toBe(`DNS:${DOMAIN}`);
        expect(JSON.stringify(answer.cert?.issuer)).toMatch(/Pebble/);
      },
      10_000,
      200,
    );
  });
});
