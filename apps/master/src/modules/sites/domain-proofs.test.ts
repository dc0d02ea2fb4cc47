import type { ConfigAnswer, DomainProof, DomainProofCheck, Site } from '@rampart/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { pendingProofs } from './domain-proofs.repository.ts';
import { settleDomainProofChecks } from './domain-proofs.service.ts';

const origins = [{ address: '127.0.0.1', port: 8081, weight: 1, backup: false }];
const ZONE = 'proof.test';
const SETTING = '/v1/configs/global-0-system-domains';

describe.each(DIALECTS)('proof of domain ownership on $dialect', (target) => {
  let pdns: PowerDns;
  let test: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone(ZONE);
  });
  afterAll(async () => {
    await pdns.close();
  });
  const start = async (domainProof: boolean) => {
    // No scheduled runs of their own: the checks a test makes are the only ones (one test runs the task).
    test = await startTestApp(target, { domainProof, background: false });
    await saveSetting(test.database.db, 'dns_resolver', pdns.dnsAddress);
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  };
  afterEach(async () => {
    await test.close();
  });

  const data = <T>(result: { body: { code: number | string; msg: string; data: unknown } }) => {
    if (result.body.code !== 0) throw new Error(`${result.body.code}: ${result.body.msg}`);
    return result.body.data as T;
  };
  const createSite = async (token: string, domains: string[]) => {
    const site = data<Site>(await test.call('POST', '/v1/sites', { token, body: { domains, origins } }));
    // The check queued by the save, so that what a test asks next is not raced by it.
    await settleDomainProofChecks();
    return site;
  };
  const check = async (token: string, siteId: number) =>
    data<DomainProofCheck>(await test.call('POST', `/v1/sites/${siteId}/domain-proofs/check`, { token }));
  const proofOf = (proofs: DomainProof[] | undefined, domain: string) => proofs?.find((each) => each.domain === domain);

  /** The sites a newly accepted edge node receives, by their domains. */
  const edgeSites = async () => {
    const { install_token } = data<{ install_token: string }>(
      await test.call('GET', '/v1/nodes/install-token', { token: admin }),
    );
    const registration = { install_token, hostname: 'edge-1', ips: ['127.0.0.1'], agent_version: '0.1.0' };
    const { pending_id, poll_secret } = data<{ pending_id: number; poll_secret: string }>(
      await test.call('POST', '/agent/v1/register', { body: registration }),
    );
    data(await test.call('POST', '/v1/nodes', { token: admin, body: { pending_id, http_port: 18080 } }));
    const accepted = await test.app.inject({
      method: 'GET',
      url: `/agent/v1/register/${pending_id}`,
      headers: { 'node-secret': poll_secret },
    });
    const credential = (accepted.json().data as { credential: string }).credential;
    return async () => {
      const answer = await test.app.inject({
        method: 'GET',
        url: '/agent/v1/config?version=0',
        headers: { 'node-token': credential },
      });
      return ((answer.json().data as ConfigAnswer).snapshot?.sites ?? []).map((site) => site.domains);
    };
  };

  it('keeps a domain off the edges until its TXT record holds the owner’s token, then serves it', async () => {
    await start(true);
    const snapshot = await edgeSites();
    const site = await createSite(alice, ['www.proof.test', 'api.proof.test']);
    expect(site.domain_proof_required).toBe(true);
    const www = proofOf(site.domain_proofs, 'www.proof.test');
    expect(www).toMatchObject({ state: 'pending', record_name: '_rampart-challenge.www.proof.test', method: '' });
    expect(www?.token).toMatch(/^rampart_[0-9a-f]{32}$/);
    // Shown to the owner only: an administrator reading the site sees the state, not the token.
    const seen = data<Site>(await test.call('GET', `/v1/sites/${site.id}`, { token: admin }));
    expect(proofOf(seen.domain_proofs, 'www.proof.test')).toMatchObject({ state: 'pending', token: '' });
    expect(await snapshot()).toEqual([]);

    await pdns.setRecords(ZONE, '_rampart-challenge.www.proof.test', 'TXT', ['"rampart-not-the-token"']);
    const wrong = await check(alice, site.id);
    expect(wrong.required).toBe(true);
    expect(proofOf(wrong.domains, 'www.proof.test')).toMatchObject({
      state: 'pending',
      reason: 'the TXT record _rampart-challenge.www.proof.test does not hold the token',
      reason_code: 'wrong_token',
    });
    expect(proofOf(wrong.domains, 'api.proof.test')).toMatchObject({
      state: 'pending',
      reason: 'no TXT record _rampart-challenge.api.proof.test',
      reason_code: 'no_record',
    });
    expect(await snapshot()).toEqual([]);

    const before = await currentConfigVersion(test.database.db);
    await pdns.setRecords(ZONE, '_rampart-challenge.www.proof.test', 'TXT', [
      '"rampart-not-the-token"',
      `"${www?.token}"`,
    ]);
    const proved = await check(alice, site.id);
    expect(proofOf(proved.domains, 'www.proof.test')).toMatchObject({ state: 'proved', method: 'txt', reason: '' });
    expect(proofOf(proved.domains, 'api.proof.test')?.state).toBe('pending');
    expect(await currentConfigVersion(test.database.db)).toBeGreaterThan(before);
    expect(await snapshot()).toEqual([['www.proof.test']]);
    // The list says the same per domain.
    const listed = data<{ list: Site[] }>(await test.call('GET', '/v1/sites', { token: alice })).list;
    expect(listed[0]?.domain_proofs?.map((proof) => [proof.domain, proof.state])).toEqual([
      ['www.proof.test', 'proved'],
      ['api.proof.test', 'pending'],
    ]);
    // Another user's site is not theirs to check.
    expect((await test.call('POST', `/v1/sites/${site.id}/domain-proofs/check`, { token: bob })).body.code).toBe(
      'not_found',
    );
  });

  it('takes the site’s CNAME at its target as proof, and proves a wildcard on its zone', async () => {
    await start(true);
    data(
      await test.call('POST', '/v1/cname-domains', {
        token: admin,
        body: { domain: 'cdn.proof.test', is_default: true },
      }),
    );
    const site = await createSite(alice, ['shop.proof.test', '*.img.proof.test']);
    const wildcard = proofOf(site.domain_proofs, '*.img.proof.test');
    expect(wildcard?.record_name).toBe('_rampart-challenge.img.proof.test');
    const pending = await check(alice, site.id);
    expect(proofOf(pending.domains, 'shop.proof.test')?.reason).toBe(
      `no TXT record _rampart-challenge.shop.proof.test; nor a CNAME to s${site.id}.cdn.proof.test (does not exist in DNS)`,
    );
    await pdns.setRecords(ZONE, 'shop.proof.test', 'CNAME', [`s${site.id}.cdn.proof.test.`]);
    await pdns.setRecords(ZONE, '_rampart-challenge.img.proof.test', 'TXT', [`"${wildcard?.token}"`]);
    const proved = await check(alice, site.id);
    expect(proved.domains.map((proof) => [proof.domain, proof.state, proof.method])).toEqual([
      ['shop.proof.test', 'proved', 'cname'],
      ['*.img.proof.test', 'proved', 'txt'],
    ]);
  });

  it('refuses a domain proved by another account, and names under its proved wildcard, even once their site is gone', async () => {
    await start(true);
    const site = await createSite(alice, ['own.proof.test', '*.own.proof.test']);
    const tokens = site.domain_proofs ?? [];
    await pdns.setRecords(
      ZONE,
      '_rampart-challenge.own.proof.test',
      'TXT',
      tokens.map((proof) => `"${proof.token}"`),
    );
    expect((await check(alice, site.id)).domains.every((proof) => proof.state === 'proved')).toBe(true);
    data(await test.call('DELETE', `/v1/sites/${site.id}`, { token: alice }));

    const exact = await test.call('POST', '/v1/sites', {
      token: bob,
      body: { domains: ['bob.example.test', 'own.proof.test'], origins },
    });
    expect(exact.body).toMatchObject({
      code: 'conflict',
      msg: 'domains[1]: own.proof.test is proved by another account',
    });
    const under = await test.call('POST', '/v1/sites', {
      token: bob,
      body: { domains: ['a.own.proof.test'], origins },
    });
    expect(under.body).toMatchObject({
      code: 'conflict',
      msg: 'domains[0]: a.own.proof.test falls under *.own.proof.test, which is proved by another account',
    });
    // The owner takes them back at once, still proved: the record once created keeps working.
    const again = await createSite(alice, ['own.proof.test']);
    expect(proofOf(again.domain_proofs, 'own.proof.test')).toMatchObject({ state: 'proved', token: tokens[0]?.token });
  });

  it('serves every domain while proof is off, and keeps them live when an operator switches it on', async () => {
    await start(false);
    const snapshot = await edgeSites();
    const old = await createSite(alice, ['old.proof.test']);
    expect(old.domain_proof_required).toBe(false);
    expect(await snapshot()).toEqual([['old.proof.test']]);

    const staff = async (username: string, access: string[]) => {
      const body = { username, password: `${username}-pass-1`, type: 1, access };
      data(await test.call('POST', '/v1/users', { token: admin, body }));
      return test.login(username, `${username}-pass-1`);
    };
    const support = await staff('support', ['admin:user', 'admin:config']);
    expect((await test.call('PUT', SETTING, { token: support, body: { domain_proof: true } })).status).toBe(403);
    expect((await test.call('PUT', SETTING, { token: alice, body: { domain_proof: true } })).status).toBe(403);
    const before = await currentConfigVersion(test.database.db);
    const sys = await staff('operator', ['admin:sys']);
    expect(data(await test.call('PUT', SETTING, { token: sys, body: { domain_proof: true } }))).toEqual({
      domain_proof: true,
    });
    expect(await currentConfigVersion(test.database.db)).toBeGreaterThan(before);
    expect(await snapshot()).toEqual([['old.proof.test']]);
    const kept = data<Site>(await test.call('GET', `/v1/sites/${old.id}`, { token: alice }));
    expect(proofOf(kept.domain_proofs, 'old.proof.test')).toMatchObject({ state: 'proved', method: 'live' });

    // A site added now waits for proof.
    await createSite(alice, ['new.proof.test']);
    expect(await snapshot()).toEqual([['old.proof.test']]);
  });

  it('checks pending domains on schedule: every run for their first day, hourly after', async () => {
    await start(true);
    const site = await createSite(alice, ['later.proof.test']);
    const due = async () => (await pendingProofs(test.database.db, { dueAt: Date.now() })).map((proof) => proof.domain);
    expect(await due()).toEqual(['later.proof.test']);
    const age = (createdAgo: number, checkedAgo: number) =>
      test.database.db
        .updateTable('domain_proofs')
        .set({ created_at: Date.now() - createdAgo, last_checked_at: Date.now() - checkedAgo })
        .where('domain', '=', 'later.proof.test')
        .execute();
    const MINUTE = 60_000;
    await age(2 * 24 * 60 * MINUTE, 10 * MINUTE);
    expect(await due()).toEqual([]);
    await age(2 * 24 * 60 * MINUTE, 61 * MINUTE);
    expect(await due()).toEqual(['later.proof.test']);

    const token = proofOf(site.domain_proofs, 'later.proof.test')?.token;
    await pdns.setRecords(ZONE, '_rampart-challenge.later.proof.test', 'TXT', [`"${token}"`]);
    const run = await test.call('POST', '/v1/tasks/scheduled/domain-proofs/run', { token: admin });
    expect(run.body.code, run.body.msg).toBe(0);
    await expect
      .poll(async () => {
        const seen = data<Site>(await test.call('GET', `/v1/sites/${site.id}`, { token: alice }));
        return proofOf(seen.domain_proofs, 'later.proof.test')?.state;
      })
      .toBe('proved');
    expect(await due()).toEqual([]);
  });

  it('gives a site made by an import its tokens, and the scheduled check proves it', async () => {
    await start(true);
    const document = {
      version: 1,
      kind: 'rampart/customer',
      sites: [{ name: 'imported', settings: { domains: ['imported.proof.test'], origins } }],
    };
    const imported = await test.call('POST', '/v1/import', { token: alice, body: { document } });
    expect(imported.body.code, imported.body.msg).toBe(0);
    const [site] = data<{ list: Site[] }>(await test.call('GET', '/v1/sites', { token: alice })).list;
    const proof = proofOf(site?.domain_proofs, 'imported.proof.test');
    expect(proof).toMatchObject({ state: 'pending', record_name: '_rampart-challenge.imported.proof.test' });
    expect(proof?.token).toMatch(/^rampart_[0-9a-f]{32}$/);
    expect((await pendingProofs(test.database.db, { dueAt: Date.now() })).map((due) => due.domain)).toEqual([
      'imported.proof.test',
    ]);

    await pdns.setRecords(ZONE, '_rampart-challenge.imported.proof.test', 'TXT', [`"${proof?.token}"`]);
    const run = await test.call('POST', '/v1/tasks/scheduled/domain-proofs/run', { token: admin });
    expect(run.body.code, run.body.msg).toBe(0);
    await expect
      .poll(async () => {
        const seen = data<Site>(await test.call('GET', `/v1/sites/${site?.id}`, { token: alice }));
        return proofOf(seen.domain_proofs, 'imported.proof.test')?.state;
      })
      .toBe('proved');
  });

  it('is on for a new installation and off where nothing was stored (an installation upgraded)', async () => {
    await start(true);
    expect(data(await test.call('GET', SETTING, { token: admin }))).toEqual({ domain_proof: true });
    await test.database.db.deleteFrom('configs').where('type', '=', 'system').where('name', '=', 'domains').execute();
    expect(data(await test.call('GET', SETTING, { token: admin }))).toEqual({ domain_proof: false });
  });
});
