import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GeoipDatabase, Site } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../master/src/db/database.ts';
import { writeMmdb } from '../../master/src/test/mmdb-writer.ts';
import { geoipFile } from '../src/geoip/geoip-store.ts';
import { type AcceptedAgent, startAcceptedAgent } from './support/accepted-agent.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { adminToken, api, MasterProcess } from './support/master-process.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const SERVED_MS = 30_000;

/** The GeoIP database from the master to the edge and the country back into the master's log, with no stand-ins. */
describe('the GeoIP database, master → agent → nginx → access log', () => {
  let master: MasterProcess;
  let admin: string;
  let node: AcceptedAgent | undefined;
  let agentDir = '';
  let origin: Origin;
  const ports = { http: 0, https: 0 };

  beforeAll(async () => {
    master = new MasterProcess(await freePort(), await mkdtemp(join(tmpdir(), 'rampart-geoip-master-')));
    await master.start();
    admin = await adminToken(master);
    origin = await startOrigin('origin');
    node = await startAcceptedAgent(master, admin, { name: 'geoip' });
    agentDir = node.dataDir;
    Object.assign(ports, node.ports);
  });

  afterAll(async () => {
    await node?.stop();
    await master?.stop();
    await origin?.close();
    if (master?.dataDir) await rm(master.dataDir, { recursive: true, force: true });
  });

  const conf = () => readFile(join(agentDir, 'nginx', 'current', 'nginx.conf'), 'utf8');

  it('ships the bundled database to the node, which loads it once its digest matches', async () => {
    const bundled = await api<GeoipDatabase>(master, 'GET', '/v1/geoip', admin);
    expect(bundled.source).toBe('bundled');
    await eventually(async () => expect(await conf()).toContain(geoipFile(agentDir, bundled.sha256)), SERVED_MS);
    const held = await readFile(geoipFile(agentDir, bundled.sha256));
    expect(createHash('sha256').update(held).digest('hex')).toBe(bundled.sha256);
  });

  it('takes an uploaded database to the edge: a country ACL denies, and the log stores the country', async () => {
    const database = writeMmdb([{ cidr: '127.0.0.0/8', data: { country: { iso_code: 'JP' } } }]);
    const response = await fetch(`${master.url}/v1/geoip?name=loopback.mmdb`, {
      method: 'POST',
      headers: { 'access-token': admin, 'content-type': 'application/octet-stream' },
      body: database,
    });
    const uploaded = ((await response.json()) as { data: GeoipDatabase }).data;
    expect(uploaded).toMatchObject({ source: 'uploaded', country_path: 'country.iso_code' });

    const site = await api<Site>(master, 'POST', '/v1/sites', admin, {
      domains: ['geo.example.com'],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
    });
    const get = (path: string) => edgeRequest(ports.http, { host: 'geo.example.com', path });
    await eventually(async () => expect((await get('/open')).status).toBe(200), SERVED_MS, 100);
    expect(await conf()).toContain(geoipFile(agentDir, uploaded.sha256));

    await api(master, 'POST', '/v1/acls', admin, {
      site_id: site.id,
      entries: [{ action: 'deny', condition: { field: 'country', op: 'equals', values: ['JP'], negate: false } }],
    });
    await eventually(async () => expect((await get('/closed')).status).toBe(403), SERVED_MS, 100);

    const logs = openDatabase({ dataDir: master.dataDir });
    try {
      await eventually(
        async () => {
          const row = await logs.logs
            .selectFrom('access_logs')
            .select(['country', 'status'])
            .where('uri', '=', '/closed')
            // Asked until the ACL was live: the first answers may have been served.
            .where('status', '=', 403)
            .executeTakeFirst();
          expect(row).toEqual({ country: 'JP', status: 403 });
        },
        SERVED_MS,
        200,
      );
    } finally {
      await logs.close();
    }
  });
});
