import { X509Certificate } from 'node:crypto';
import { domainToASCII } from 'node:url';
import type { Cert } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledCert, useAcmeTestServers } from '../../test/acme.ts';
import { DIALECTS } from '../../test/databases.ts';
import { type DnsServer, startDnsServer } from '../../test/dns-server.ts';
import { type Pebble, startPebble } from '../../test/pebble.ts';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { parseCertificate } from '../certs/cert-validation.ts';
import { saveSetting } from '../settings/settings.service.ts';

/** DNS-01 for real: pebble validates TXT records that the master makes in a real PowerDNS through its API. */
describe('ACME DNS-01 against pebble and PowerDNS', () => {
  let pdns: PowerDns;
  let pebble: Pebble;
  let emptyDns: DnsServer;
  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone('dns01.test');
    pebble = await startPebble({ dnsServer: pdns.dnsAddress });
    emptyDns = await startDnsServer({});
  });
  /** The TXT record sets left in the zone: every issuance removes its own. */
  const txtRecords = async () => {
    const zone = (await (
      await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones/dns01.test.`, {
        headers: { 'x-api-key': pdns.apiKey },
      })
    ).json()) as { rrsets: { name: string; type: string }[] };
    return zone.rrsets.filter((rrset) => rrset.type === 'TXT').map((rrset) => rrset.name);
  };
  afterAll(async () => {
    await pebble?.close();
    await pdns?.close();
    await emptyDns?.close();
  });

  describe.each(DIALECTS)('on $dialect', (target) => {
    let test: TestApp;
    let alice: string;
    let bob: string;
    let dnsapiId: number;
    const domain = (name: string) => `${name}-${target.dialect}.dns01.test`;
    const request = (token: string, body: object) =>
      test.call('POST', '/v1/certs', { token, body: { type: 'acme', challenge: 'dns-01', ...body } });

    beforeAll(async () => {
      test = await startTestApp(target, { env: { RAMPART_ACME_CA_FILE: pebble.caFile } });
      await useAcmeTestServers(test, pebble, pdns.dnsAddress);
      alice = await addUser(test, 'alice');
      bob = await addUser(test, 'bob');
      const created = await test.call('POST', '/v1/dnsapis', {
        token: alice,
        body: { name: 'pdns', provider: 'powerdns', credentials: { url: pdns.apiUrl, api_key: pdns.apiKey } },
      });
      dnsapiId = (created.body.data as { id: number }).id;
    });
    afterAll(async () => {
      await test?.close();
    });

    it('issues a real certificate for a name and its wildcard, in the background, then removes the TXT records', async () => {
      const names = [domain('www'), `*.${domain('www')}`];
      const started = await request(alice, { domains: names, dnsapi_id: dnsapiId });
      expect(started.body).toMatchObject({
        code: 0,
        data: { source: 'acme', status: 'issuing', progress: 'queued', names: [], not_after: null, domains: names },
      });
      const cert = await settledCert(test, alice, (started.body.data as Cert).id);
      expect(cert).toMatchObject({ status: 'issued', progress: 'stored', error: '', names });
      expect(cert.issuer).toMatch(/Pebble/);
      const renewAt = Date.parse(cert.renew_at ?? '');
      expect(Date.parse(cert.not_after ?? '') - renewAt).toBe(30 * 86_400_000);

      const row = await test.database.db
        .selectFrom('certs')
        .select(['cert_pem', 'key_pem'])
        .where('id', '=', cert.id)
        .executeTakeFirstOrThrow();
      const parsed = parseCertificate(row.cert_pem, row.key_pem);
      expect(parsed.names.sort()).toEqual([...names].sort());
      const chain = row.cert_pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
      const root = new X509Certificate(await pebble.issuingRoot());
      expect(new X509Certificate(chain.at(-1) ?? '').verify(root.publicKey)).toBe(true);
      expect(JSON.stringify((await test.call('GET', `/v1/certs/${cert.id}`, { token: alice })).body)).not.toContain(
        'PRIVATE KEY',
      );

      expect(await txtRecords()).toEqual([]);

      const admin = await test.login('admin', ADMIN_PASSWORD);
      const tasks = (await test.call('GET', '/v1/tasks?kind=cert-issue', { token: admin })).body.data as {
        list: { target_id: number; state: string; progress: string }[];
      };
      expect(tasks.list.find((task) => task.target_id === cert.id)).toMatchObject({
        state: 'done',
        progress: 'stored',
      });
      expect((await test.call('GET', '/v1/tasks', { token: alice })).status).toBe(403);
    });

    it('says in plain words when the TXT record never shows in DNS, and cleans up', async () => {
      await saveSetting(test.database.db, 'dns_resolver', emptyDns.address);
      await saveSetting(test.database.db, 'acme_dns_wait_seconds', 2);
      try {
        const started = await request(alice, { domains: [domain('late')], dnsapi_id: dnsapiId });
        const cert = await settledCert(test, alice, (started.body.data as Cert).id);
        expect(cert, cert.error).toMatchObject({ status: 'failed', progress: 'challenge', not_after: null });
        expect(cert.error).toBe(
          `the TXT record _acme-challenge.${domain('late')} did not show in DNS within 2 s (asked ${emptyDns.address}); check that the DNS API's zone is the one the domain is delegated to`,
        );
        expect(await txtRecords()).toEqual([]);
      } finally {
        await saveSetting(test.database.db, 'dns_resolver', pdns.dnsAddress);
        await saveSetting(test.database.db, 'acme_dns_wait_seconds', 20);
      }
    });

    it("passes the ACME server's reason through when it cannot validate", async () => {
      // A second pebble that looks names up in an empty DNS: the TXT shows for the master, not for it.
      const blind = await startPebble({ dnsServer: emptyDns.address });
      await saveSetting(test.database.db, 'acme_directory_url', blind.directoryUrl);
      try {
        const started = await request(alice, { domains: [domain('blind')], dnsapi_id: dnsapiId });
        const cert = await settledCert(test, alice, (started.body.data as Cert).id);
        expect(cert).toMatchObject({ status: 'failed', progress: 'validating' });
        expect(cert.error).toContain(`the ACME server could not validate ${domain('blind')} (dns-01): `);
        // pebble's own words, passed through.
        expect(cert.error).toContain('Error retrieving TXT records');
        expect(await txtRecords()).toEqual([]);
      } finally {
        await saveSetting(test.database.db, 'acme_directory_url', pebble.directoryUrl);
        await blind.close();
      }
    });

    it('checks the request: domains, zones, DNS API owner, challenge type and fields', async () => {
      const invalid = async (token: string, body: object) => {
        const answer = await request(token, body);
        expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        return answer.body.msg;
      };
      expect(await invalid(alice, { domains: ['www.other.test'], dnsapi_id: dnsapiId })).toBe(
        'domains/0: no zone of the DNS API "pdns" holds www.other.test',
      );
      expect(await invalid(alice, { domains: [domain('a')] })).toBe('dnsapi_id: is required for the dns-01 challenge');
      expect(await invalid(bob, { domains: [domain('a')], dnsapi_id: dnsapiId })).toBe(
        `dnsapi_id: DNS API ${dnsapiId} does not exist`,
      );
      expect(await invalid(alice, { domains: ['bad domain.test'], dnsapi_id: dnsapiId })).toMatch(
        /^body\/domains\/0: /,
      );
      expect(await invalid(alice, { domains: ['a.test\r\nx'], dnsapi_id: dnsapiId })).toMatch(/^body\/domains\/0: /);
      expect(await invalid(alice, { domains: [], dnsapi_id: dnsapiId })).toMatch(/^body\/domains: /);
      expect(await invalid(alice, { domains: [domain('a')], dnsapi_id: dnsapiId, cert: 'x', key: 'y' })).toBe(
        'cert: is not sent for an ACME certificate: the master issues it',
      );
      expect(await invalid(alice, { domains: [domain('a')], challenge: 'tls-alpn-01', dnsapi_id: dnsapiId })).toMatch(
        /^body\/challenge: /,
      );
      expect(await invalid(alice, { domains: [`*.${domain('w')}`], challenge: 'http-01' })).toBe(
        `domains/0: *.${domain('w')}: a wildcard needs the dns-01 challenge`,
      );
      expect(await invalid(alice, { domains: [domain('w')], challenge: 'http-01' })).toBe(
        `domains/0: ${domain('w')} is not a domain of any of your sites (http-01 is answered by the edges)`,
      );
      expect(await invalid(alice, { domains: [domain('w')], challenge: 'http-01', dnsapi_id: dnsapiId })).toBe(
        'dnsapi_id: is only for the dns-01 challenge',
      );
      expect((await test.call('POST', '/v1/certs', { token: alice, body: { domains: [domain('w')] } })).body.msg).toBe(
        'domains: is only for an ACME certificate (type acme)',
      );
    });

    it('stores typed Unicode domains in IDNA form', async () => {
      const started = await request(alice, { domains: [`Bücher-${target.dialect}.Dns01.test.`], dnsapi_id: dnsapiId });
      const ascii = domainToASCII(`bücher-${target.dialect}.dns01.test`);
      expect(ascii).toMatch(/^xn--/);
      expect((started.body.data as Cert).domains).toEqual([ascii]);
      const cert = await settledCert(test, alice, (started.body.data as Cert).id);
      expect(cert.status).toBe('issued');
    });

    it('never shows, re-issues or deletes another user’s certificate', async () => {
      const { list } = (await test.call('GET', '/v1/certs', { token: alice })).body.data as { list: Cert[] };
      const [cert] = list;
      expect(cert).toBeDefined();
      expect((await test.call('GET', '/v1/certs', { token: bob })).body.data).toEqual({ list: [], total: 0 });
      expect((await test.call('GET', `/v1/certs/${cert?.id}`, { token: bob })).status).toBe(404);
      expect((await test.call('PUT', `/v1/certs/${cert?.id}`, { token: bob, body: { reissue: true } })).status).toBe(
        404,
      );
      expect((await test.call('DELETE', `/v1/certs/${cert?.id}`, { token: bob })).status).toBe(404);
      expect((await test.call('GET', `/v1/certs/${cert?.id}/pem`, { token: bob })).status).toBe(404);
      expect((await test.call('DELETE', `/v1/dnsapis/${dnsapiId}`, { token: alice })).body).toMatchObject({
        code: 'conflict',
      });
    });
  });
});
