import type { Cert } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledCert, useAcmeTestServers } from '../../test/acme.ts';
import { makeCert } from '../../test/certs.ts';
import { DIALECTS } from '../../test/databases.ts';
import { type Pebble, startPebble } from '../../test/pebble.ts';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { renewDueCerts } from './renewals.ts';

const DAY = 86_400_000;

describe('ACME renewal and re-issue', () => {
  let pdns: PowerDns;
  let pebble: Pebble;
  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone('renew.test');
    pebble = await startPebble({ dnsServer: pdns.dnsAddress });
  });
  afterAll(async () => {
    await pebble?.close();
    await pdns?.close();
  });

  describe.each(DIALECTS)('on $dialect', (target) => {
    let test: TestApp;
    let alice: string;
    let acme: Cert;
    let upload: Cert;
    beforeAll(async () => {
      test = await startTestApp(target, { env: { RAMPART_ACME_CA_FILE: pebble.caFile } });
      await useAcmeTestServers(test, pebble, pdns.dnsAddress);
      alice = await addUser(test, 'alice');
      const dnsapi = await test.call('POST', '/v1/dnsapis', {
        token: alice,
        body: { name: 'pdns', provider: 'powerdns', credentials: { url: pdns.apiUrl, api_key: pdns.apiKey } },
      });
      const started = await test.call('POST', '/v1/certs', {
        token: alice,
        body: {
          type: 'acme',
          domains: [`a-${target.dialect}.renew.test`],
          challenge: 'dns-01',
          dnsapi_id: (dnsapi.body.data as { id: number }).id,
        },
      });
      acme = await settledCert(test, alice, (started.body.data as Cert).id);
      const pem = makeCert([`b-${target.dialect}.renew.test`]);
      upload = (await test.call('POST', '/v1/certs', { token: alice, body: pem })).body.data as Cert;
    });
    afterAll(async () => {
      await test?.close();
    });

    it('renews only ACME certificates within 30 days of expiry, and serves the new one', async () => {
      expect(acme.status).toBe('issued');
      expect(upload).toMatchObject({ source: 'upload', status: 'issued', renew_at: null, progress: '' });
      const notAfter = Date.parse(acme.not_after ?? '');
      expect(await renewDueCerts(test.database.db, notAfter - 31 * DAY)).toEqual([]);
      // The uploaded certificate expires within 30 days too, but only ACME certificates renew.
      expect(await renewDueCerts(test.database.db, notAfter - 29 * DAY)).toEqual([acme.id]);
      // Queued once: a second sweep while it runs queues nothing.
      expect(await renewDueCerts(test.database.db, notAfter - 29 * DAY)).toEqual([]);
      const before = await test.database.db
        .selectFrom('certs')
        .select('cert_pem')
        .where('id', '=', acme.id)
        .executeTakeFirstOrThrow();
      const renewed = await settledCert(test, alice, acme.id);
      expect(renewed).toMatchObject({ status: 'issued', progress: 'stored' });
      const after = await test.database.db
        .selectFrom('certs')
        .select('cert_pem')
        .where('id', '=', acme.id)
        .executeTakeFirstOrThrow();
      expect(after.cert_pem).not.toBe(before.cert_pem);
      expect(Date.parse(renewed.renew_at ?? '')).toBe(Date.parse(renewed.not_after ?? '') - 30 * DAY);
    });

    it('re-issues on request with new domains, refuses a second run at once and an upload’s fields', async () => {
      const reissue = await test.call('PUT', `/v1/certs/${acme.id}`, {
        token: alice,
        body: { domains: [`a-${target.dialect}.renew.test`, `c-${target.dialect}.renew.test`] },
      });
      expect(reissue.body).toMatchObject({ code: 0, data: { status: 'issuing' } });
      const again = await test.call('PUT', `/v1/certs/${acme.id}`, { token: alice, body: { reissue: true } });
      expect(again.body).toMatchObject({
        code: 'conflict',
        msg: 'an issuance of this certificate is already queued or running',
      });
      expect((await test.call('DELETE', `/v1/certs/${acme.id}`, { token: alice })).body).toMatchObject({
        code: 'conflict',
      });
      const done = await settledCert(test, alice, acme.id);
      expect(done.names.sort()).toEqual([`a-${target.dialect}.renew.test`, `c-${target.dialect}.renew.test`]);
      expect(
        (await test.call('PUT', `/v1/certs/${upload.id}`, { token: alice, body: { reissue: true } })).body.msg,
      ).toBe('reissue: is only for an ACME certificate');
      expect(
        (await test.call('PUT', `/v1/certs/${acme.id}`, { token: alice, body: makeCert(['x.renew.test']) })).body.msg,
      ).toBe('cert: an ACME certificate is issued by the master, not uploaded');
    });
  });
});
