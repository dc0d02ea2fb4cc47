import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import type { EdgeGeoip, EdgeProtection, EdgeSnapshot, SiteProtection } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMmdb } from '../../master/src/test/mmdb-writer.ts';
import { ensureGeoip, geoipFile } from '../src/geoip/geoip-store.ts';
import { silentLogger } from '../src/logger.ts';
import { StateStore } from '../src/state.ts';
import { ConfigSync } from '../src/sync/config-sync.ts';
import { MasterClient } from '../src/sync/master-client.ts';
import { makeProtection, makeSite } from '../src/testing/snapshots.ts';
import { createEdge, fastPathModuleOrSkip, LUA_MARK, restartMarked, type TestEdge } from './support/edge.ts';
import { eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const guard = makeProtection;

/** The loopback range as countries: 127.0.0.0/8 is CN, 127.0.0.2 US, 127.0.0.3 nowhere. */
const database = writeMmdb([
  { cidr: '127.0.0.0/8', data: { country_code: 'CN' } },
  { cidr: '127.0.0.2/32', data: { country_code: 'US' } },
  { cidr: '127.0.0.3/32', data: { other: 'no country' } },
]);
const digestOf = (bytes: Buffer): EdgeGeoip => ({
  sha256: createHash('sha256').update(bytes).digest('hex'),
  size: bytes.length,
});
const geoip = digestOf(database);
/** MaxMind's layout (country.iso_code): all of 127.0.0.0/8 is US. */
const maxmind = writeMmdb([
  { cidr: '127.0.0.0/8', data: { country: { iso_code: 'US', names: { en: 'United States' } } } },
]);

/** A GET from `from` (a loopback address of the client's choosing) to the edge. */
/** The status of a request from `from`, and its body. */
function askFrom(port: number, from: string, host: string, path = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, localAddress: from, agent: false, headers: { host, connection: 'close' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const getFrom = async (port: number, from: string, host: string, path = '/') =>
  (await askFrom(port, from, host, path)).status;

describe('country conditions through a real nginx with the geoip2 module', () => {
  let edge: TestEdge;
  let origin: Origin;

  const protection: EdgeProtection = {
    rule_groups: [
      {
        id: 1,
        rules: [
          {
            match_id: 11,
            filter_id: 21,
            conditions: [{ field: 'country', op: 'equals', values: ['US', 'JP'], negate: false }],
            filter: { name: 'one', type: 'rate', requests: 1, seconds: 60, per: 'ip' },
            action: 'block',
            ban_seconds: 600,
          },
        ],
      },
    ],
    acls: [
      {
        site_id: 1,
        entries: [{ action: 'deny', condition: { field: 'country', op: 'equals', values: ['CN'], negate: false } }],
      },
      {
        site_id: 2,
        entries: [{ action: 'deny', condition: { field: 'country', op: 'equals', values: ['us'], negate: true } }],
      },
    ],
    bans: [],
    unbans: [],
  };

  const snapshot = (version: number, database: EdgeGeoip | null): EdgeSnapshot => {
    const site = (id: number, domain: string, p: SiteProtection) =>
      makeSite({
        id,
        domains: [domain],
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        protection: p,
      });
    const parts = edge.snapshot({
      version,
      sites: [
        site(1, 'no-cn.test', guard({})),
        site(2, 'us-only.test', guard({})),
        site(3, 'cc.test', guard({ rule_group_id: 1 })),
      ],
      protection,
    });
    return database ? { ...parts, geoip: database } : parts;
  };

  beforeAll(async () => {
    edge = await createEdge({ waf: false });
    origin = await startOrigin('origin');
    // Nothing held yet: the config goes live without country lookups.
    expect(await edge.applier.apply(snapshot(1, geoip))).toMatchObject({ applied: true, errors: [] });
    expect(await readFile(`${edge.paths.currentLink}/nginx.conf`, 'utf8')).not.toContain('geoip2');
    await ensureGeoip(edge.dataDir, geoip, async () => database);
    expect(await edge.applier.apply(snapshot(2, geoip))).toMatchObject({ applied: true, errors: [] });
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  it.skipIf(fastPathModuleOrSkip() === null)(
    "runs country conditions in the edge's nginx module, leaving to Lua only what they deny",
    async () => {
      // The Lua router marks what it routed (the origin sees the header); a later apply drops the mark.
      await restartMarked(edge);
      const { http } = edge.ports;
      const passed = await askFrom(http, '127.0.0.2', 'no-cn.test', '/m');
      expect(passed.status).toBe(200);
      expect((JSON.parse(passed.body) as { headers: Record<string, string> }).headers[LUA_MARK]).toBeUndefined();
      expect(await getFrom(http, '127.0.0.1', 'no-cn.test', '/m')).toBe(403);
      // No country known for the address: served by the module too.
      const unknown = await askFrom(http, '127.0.0.3', 'no-cn.test', '/m');
      expect((JSON.parse(unknown.body) as { headers: Record<string, string> }).headers[LUA_MARK]).toBeUndefined();
    },
  );

  it('refuses a download whose digest or size is not the snapshot’s, and keeps nothing of it', async () => {
    const other = writeMmdb([{ cidr: '127.0.0.0/8', data: { country_code: 'FR' } }]);
    const claimed: EdgeGeoip = { sha256: 'a'.repeat(64), size: other.length };
    await expect(ensureGeoip(edge.dataDir, claimed, async () => other)).rejects.toThrow(
      /has sha256 [0-9a-f]{64}, not a{64}/,
    );
    await expect(ensureGeoip(edge.dataDir, { ...claimed, size: 7 }, async () => other)).rejects.toThrow(/bytes, not 7/);
    expect(existsSync(geoipFile(edge.dataDir, claimed.sha256))).toBe(false);
  });

  it('an ACL entry denies the countries it lists, and a negated one everything but them', async () => {
    const { http } = edge.ports;
    expect(await getFrom(http, '127.0.0.1', 'no-cn.test', '/a')).toBe(403);
    expect(await getFrom(http, '127.0.0.2', 'no-cn.test', '/a')).toBe(200);
    // No country known for the address: a CN entry does not hold.
    expect(await getFrom(http, '127.0.0.3', 'no-cn.test', '/a')).toBe(200);
    // Values compare in upper case ("us" was sent); a negated entry denies unknown addresses too.
    expect(await getFrom(http, '127.0.0.2', 'us-only.test', '/b')).toBe(200);
    expect(await getFrom(http, '127.0.0.1', 'us-only.test', '/b')).toBe(403);
    expect(await getFrom(http, '127.0.0.3', 'us-only.test', '/b')).toBe(403);
  });

  it('a CC rule whose match names countries applies to their clients only', async () => {
    const { http } = edge.ports;
    expect(await getFrom(http, '127.0.0.2', 'cc.test', '/c')).toBe(200);
    expect(await getFrom(http, '127.0.0.2', 'cc.test', '/c')).toBe(403);
    for (let i = 0; i < 3; i++) expect(await getFrom(http, '127.0.0.1', 'cc.test', '/c')).toBe(200);
  });

  it('writes each request’s country into the access log', async () => {
    await eventually(async () => {
      const lines = (await readFile(edge.paths.accessLog, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { client_ip: string; host: string; uri: string; country?: string });
      const country = (host: string, uri: string, ip: string) =>
        lines.find((l) => l.host === host && l.uri === uri && l.client_ip === ip)?.country;
      expect(country('no-cn.test', '/a', '127.0.0.1')).toBe('CN');
      expect(country('no-cn.test', '/a', '127.0.0.2')).toBe('US');
      expect(country('no-cn.test', '/a', '127.0.0.3')).toBe('');
    });
  });

  it('reads the country where a MaxMind-layout database keeps it (country.iso_code)', async () => {
    const other = { ...digestOf(maxmind), country_path: 'country.iso_code' as const };
    await ensureGeoip(edge.dataDir, other, async () => maxmind);
    expect(await edge.applier.apply(snapshot(3, other))).toMatchObject({ applied: true, errors: [] });
    expect(await getFrom(edge.ports.http, '127.0.0.1', 'no-cn.test', '/e')).toBe(200);
    expect(await getFrom(edge.ports.http, '127.0.0.1', 'us-only.test', '/e')).toBe(200);
    // The previous database is kept beside it (the last proven config may still name it).
    expect(existsSync(geoipFile(edge.dataDir, geoip.sha256))).toBe(true);
  });

  it('fetches a database that did not arrive again, and applies the config with it once it is here', async () => {
    const third = writeMmdb([{ cidr: '127.0.0.0/8', data: { country_code: 'KP' } }]);
    const digest = digestOf(third);
    let tries = 0;
    const sync = new ConfigSync({
      client: new MasterClient('http://127.0.0.1:9'),
      credential: 'node-credential-0123456789abcdef',
      applier: edge.applier,
      state: new StateStore(join(edge.dataDir, 'sync-state.json')),
      waitSeconds: 1,
      jobContext: { controlPort: edge.ports.control, cacheDir: edge.paths.cacheDir, edgeAddress: '127.0.0.1' },
      droppedLogLines: () => 0,
      geoip: {
        dataDir: edge.dataDir,
        retryMs: 100,
        download: async () => {
          tries++;
          if (tries === 1) throw new Error('geoip: the master answered 503 to the database download');
          return third;
        },
      },
      log: silentLogger,
    });
    const stop = new AbortController();
    try {
      await sync.handleSnapshot(snapshot(20, digest), stop.signal);
      expect(await readFile(`${edge.paths.currentLink}/nginx.conf`, 'utf8')).not.toContain('geoip2');
      expect(await getFrom(edge.ports.http, '127.0.0.1', 'no-cn.test', '/f')).toBe(200);
      await eventually(async () =>
        expect(await readFile(`${edge.paths.currentLink}/nginx.conf`, 'utf8')).toContain(
          geoipFile(edge.dataDir, digest.sha256),
        ),
      );
      expect(tries).toBe(2);
      // KP now: a US-only site refuses 127.0.0.1.
      expect(await getFrom(edge.ports.http, '127.0.0.1', 'us-only.test', '/f')).toBe(403);
    } finally {
      stop.abort();
    }
  });

  it('leaves a database nginx cannot open out, and the rest of the config goes live', async () => {
    const broken = Buffer.from('not a MaxMind DB, though its digest matches');
    const digest = digestOf(broken);
    await ensureGeoip(edge.dataDir, digest, async () => broken);
    const outcome = await edge.applier.apply(snapshot(30, digest));
    expect(outcome).toMatchObject({ applied: true, errors: [], error: '' });
    expect(outcome.notice).toBe(`geoip: nginx refused the database ${digest.sha256}; serving without country lookups`);
    expect(await readFile(`${edge.paths.currentLink}/nginx.conf`, 'utf8')).not.toContain('geoip2');
    expect(await getFrom(edge.ports.http, '127.0.0.1', 'no-cn.test', '/g')).toBe(200);
  });

  it('without the database the config leaves country lookups out, and country conditions never hold', async () => {
    expect(await edge.applier.apply(snapshot(4, null))).toMatchObject({ applied: true, errors: [] });
    expect(await readFile(`${edge.paths.currentLink}/nginx.conf`, 'utf8')).not.toContain('geoip2');
    expect(await getFrom(edge.ports.http, '127.0.0.1', 'no-cn.test', '/d')).toBe(200);
    expect(await getFrom(edge.ports.http, '127.0.0.1', 'us-only.test', '/d')).toBe(403);
  });
});
