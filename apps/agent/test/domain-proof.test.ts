import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DomainProofCheck, Site } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../master/src/db/database.ts';
import { saveSetting } from '../../master/src/modules/settings/settings.service.ts';
import { type PowerDns, startPowerDns } from '../../master/src/test/powerdns.ts';
import { type AcceptedAgent, startAcceptedAgent } from './support/accepted-agent.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { adminToken, api, MasterProcess } from './support/master-process.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const ZONE = 'proof-edge.test';
const DOMAIN = `www.${ZONE}`;

/**
 * Proof of domain ownership for real: while a domain waits for proof, nginx answers it as a host no
 * site serves; once its TXT record holds the token and the master checked it, the site is served.
 */
describe('a domain waiting for proof, through master → agent → nginx', () => {
  let pdns: PowerDns;
  let master: MasterProcess;
  let admin: string;
  let node: AcceptedAgent | undefined;
  let origin: Origin;
  const ports = { http: 0, https: 0 };

  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone(ZONE);
    master = new MasterProcess(
      await freePort(),
      await mkdtemp(join(tmpdir(), 'rampart-proof-master-')),
      {},
      { domainProof: true },
    );
    await master.start();
    admin = await adminToken(master);
    const settings = openDatabase({ dataDir: master.dataDir });
    try {
      await saveSetting(settings.db, 'dns_resolver', pdns.dnsAddress);
    } finally {
      await settings.close();
    }
    origin = await startOrigin('proved');
    node = await startAcceptedAgent(master, admin, { name: 'proof' });
    Object.assign(ports, node.ports);
  });

  afterAll(async () => {
    await node?.stop();
    await master?.stop();
    await origin?.close();
    await pdns?.close();
    if (master?.dataDir) await rm(master.dataDir, { recursive: true, force: true });
  });

  it('answers the domain as an unknown host until it is proved, then serves the site', async () => {
    const site = await api<Site>(master, 'POST', '/v1/sites', admin, {
      domains: [DOMAIN],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
    });
    const proof = site.domain_proofs?.[0];
    expect(proof).toMatchObject({ state: 'pending', record_name: `_rampart-challenge.${DOMAIN}` });
    // The node has applied the version that holds the site: the domain is still nobody's there.
    await eventually(async () => {
      const status = await api<{ nodes: { applied: boolean }[] }>(
        master,
        'GET',
        `/v1/sites/${site.id}/apply-status`,
        admin,
      );
      expect(status.nodes).toEqual([expect.objectContaining({ applied: true })]);
    }, 20_000);
    const waiting = await edgeRequest(ports.http, { host: DOMAIN, path: '/' });
    expect(waiting.status).toBe(404);
    expect(waiting.body).toContain('No site here');
    expect(origin.requests).toEqual([]);

    await pdns.setRecords(ZONE, proof?.record_name ?? '', 'TXT', [`"${proof?.token}"`]);
    const checked = await api<DomainProofCheck>(master, 'POST', `/v1/sites/${site.id}/domain-proofs/check`, admin);
    expect(checked.domains).toEqual([expect.objectContaining({ domain: DOMAIN, state: 'proved', method: 'txt' })]);
    await eventually(
      async () => {
        const answer = await edgeRequest(ports.http, { host: DOMAIN, path: '/' });
        expect(answer.status).toBe(200);
        expect((JSON.parse(answer.body) as { origin: string }).origin).toBe('proved');
      },
      20_000,
      50,
    );
  });
});
