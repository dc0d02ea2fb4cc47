import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { changeConfig, currentConfigVersion } from '../config/config-version.ts';
import { sharedPart } from './snapshot.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };

describe.each(DIALECTS)('the shared part of the snapshot on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  const addSite = (domain: string) =>
    test.call('POST', '/v1/sites', { token: alice, body: { domains: [domain], origins: [origin] } });
  const sitesOf = (json: string) =>
    (JSON.parse(`{${json}}`) as { sites: { domains: string[] }[] }).sites.map((site) => site.domains[0]);

  it('is built once for a version however many polls a change wakes at the same moment', async () => {
    const { db } = test.database;
    await addSite('a.example.com');
    const before = await sharedPart(db, await currentConfigVersion(db));
    expect(sitesOf(before.json)).toEqual(['a.example.com']);

    await addSite('b.example.com');
    const version = await currentConfigVersion(db);
    const parts = await Promise.all(Array.from({ length: 50 }, () => sharedPart(db, version)));
    // One build: every poll gets the same part, and it holds the change.
    expect(new Set(parts).size).toBe(1);
    expect(parts[0]).not.toBe(before);
    expect(parts[0]?.version).toBe(version);
    expect(sitesOf(parts[0]?.json ?? '').sort()).toEqual(['a.example.com', 'b.example.com']);

    // A poll that read an older version gets the newer part, never an older one.
    expect(await sharedPart(db, version - 1)).toBe(parts[0]);
  });

  it('is built again after a build that failed', async () => {
    const { db } = test.database;
    await addSite('a.example.com');
    await sharedPart(db, await currentConfigVersion(db));
    await changeConfig(db, async () => undefined);
    const version = await currentConfigVersion(db);
    // The build fails: the table it reads first is gone for a moment.
    await db.schema.alterTable('sites').renameTo('sites_away').execute();
    await expect(sharedPart(db, version)).rejects.toThrow();
    await db.schema.alterTable('sites_away').renameTo('sites').execute();
    const parts = await Promise.all(Array.from({ length: 10 }, () => sharedPart(db, version)));
    expect(new Set(parts).size).toBe(1);
    expect(sitesOf(parts[0]?.json ?? '')).toEqual(['a.example.com']);
  });
});
