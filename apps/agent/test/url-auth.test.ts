import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DEFAULT_SITE_URL_AUTH, type SiteUrlAuth } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const KEY = 'PrimaryKey0123456789';
const BACKUP = 'BackupKey98765432100';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const now = () => Math.floor(Date.now() / 1000);

// Signed as the README shows (the same strings the edge checks).
const signA = (path: string, key = KEY, ts = now(), rand = 'r4nd', uid = '0') =>
  `${path}?auth_key=${ts}-${rand}-${uid}-${md5(`${path}-${ts}-${rand}-${uid}-${key}`)}`;
const stampOf = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/[-T:]/g, '').slice(0, 12);
const signB = (path: string, key = KEY, ts = now()) => {
  const stamp = stampOf(ts);
  return `/${stamp}/${md5(`${key}${stamp}${path}`)}${path}`;
};
const signC = (path: string, key = KEY, ts = now()) => {
  const hex = ts.toString(16);
  return `/${md5(`${key}${path}${hex}`)}/${hex}${path}`;
};

const auth = (overrides: Partial<SiteUrlAuth>): SiteUrlAuth => ({
  ...DEFAULT_SITE_URL_AUTH,
  enabled: true,
  key: KEY,
  backup_key: BACKUP,
  ttl: 600,
  ...overrides,
});

describe('signed URLs, through a real nginx', () => {
  let edge: TestEdge;
  let origin: Origin;

  beforeAll(async () => {
    edge = await createEdge();
    origin = await startOrigin('origin');
    const site = (id: number, domain: string, urlAuth: SiteUrlAuth) =>
      makeSite({
        id,
        domains: [domain],
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        cache_rules: [{ match: 'prefix', value: '/v/', ttl: 600, ignore_query: false, honor_origin: false }],
        url_auth: urlAuth,
      });
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 2,
        sites: [
          site(1, 'a.test', auth({ type: 'a' })),
          site(2, 'b.test', auth({ type: 'b', extensions: ['mp4'] })),
          site(3, 'c.test', auth({ type: 'c', paths: ['/private/'], backup_key: '' })),
          // Each leaves the router by another way: a location of its own proxy headers, the header
          // filter's, and a rewrite after the signature was taken off.
          {
            ...site(4, 'own-headers.test', auth({ type: 'b' })),
            request_headers: [{ name: 'X-From-Edge', value: 'yes' }],
          },
          { ...site(5, 'decorated.test', auth({ type: 'c' })), response_headers: [{ name: 'X-Site', value: 'd' }] },
          {
            ...site(6, 'rewrite.test', auth({ type: 'b' })),
            redirects: {
              host: 'off',
              trailing_slash: 'off',
              rules: [
                {
                  match: 'prefix',
                  value: '/old/',
                  action: 'rewrite',
                  status: 301,
                  target: '/new/$1',
                  keep_query: true,
                },
              ],
            },
          },
        ],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [] });
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  const get = (host: string, path: string) => edgeRequest(edge.ports.http, { host, path });
  const seen = (body: string) => (JSON.parse(body) as { url: string }).url;

  it('a: passes a good signature with either key, and sends the origin the URL without auth_key', async () => {
    const signed = await get('a.test', signA('/files/report.pdf'));
    expect(signed.status).toBe(200);
    expect(seen(signed.body)).toBe('/files/report.pdf');
    const withQuery = await get('a.test', signA('/files/report.pdf').replace('?', '?page=2&'));
    expect(seen(withQuery.body)).toBe('/files/report.pdf?page=2');
    expect((await get('a.test', signA('/files/report.pdf', BACKUP))).status).toBe(200);
  });

  it('a: refuses a missing, wrong, tampered or expired signature with 403', async () => {
    expect((await get('a.test', '/files/report.pdf')).status).toBe(403);
    expect((await get('a.test', signA('/files/report.pdf', 'SomeOtherKey12345678'))).status).toBe(403);
    expect((await get('a.test', signA('/files/report.pdf').replace('report', 'secret'))).status).toBe(403);
    expect((await get('a.test', signA('/files/report.pdf', KEY, now() - 601))).status).toBe(403);
    expect((await get('a.test', '/files/report.pdf?auth_key=garbage')).status).toBe(403);
  });

  it('b: takes the signature off for the origin and the cache, and covers only its extensions', async () => {
    const first = await get('b.test', signB('/v/movie.mp4'));
    expect(first.status).toBe(200);
    expect(seen(first.body)).toBe('/v/movie.mp4');
    // Another signature of the same file (signed a minute earlier) is the same cache entry.
    const again = await get('b.test', signB('/v/movie.mp4', BACKUP, now() - 60));
    expect(again.status).toBe(200);
    expect(again.headers['x-cache-status']).toBe('HIT');
    expect((await get('b.test', '/v/movie.mp4')).status).toBe(403);
    expect((await get('b.test', signB('/v/movie.mp4', KEY, now() - 700))).status).toBe(403);
    expect((await get('b.test', '/v/page.html')).status).toBe(200);
  });

  it('c: checks the paths it covers, and takes the signature off', async () => {
    const signed = await get('c.test', signC('/private/doc.pdf'));
    expect(signed.status).toBe(200);
    expect(seen(signed.body)).toBe('/private/doc.pdf');
    expect((await get('c.test', '/private/doc.pdf')).status).toBe(403);
    // No backup key on this site.
    expect((await get('c.test', signC('/private/doc.pdf', BACKUP))).status).toBe(403);
    expect((await get('c.test', '/public/doc.pdf')).status).toBe(200);
  });

  it('takes the signature off again when the same URL comes back (remembered), whichever way it leaves', async () => {
    // Signed once: the same URLs three times.
    const at = now();
    for (let i = 0; i < 3; i++) {
      expect(seen((await get('a.test', signA('/again.pdf', KEY, at))).body)).toBe('/again.pdf');
      const withQuery = signA('/again.pdf', KEY, at).replace('?', '?x=1&');
      expect(seen((await get('a.test', withQuery)).body)).toBe('/again.pdf?x=1');
      const b = await get('own-headers.test', signB('/p/q.bin', KEY, at));
      expect(b.status).toBe(200);
      expect(seen(b.body)).toBe('/p/q.bin');
      expect((JSON.parse(b.body) as { headers: Record<string, string> }).headers['x-from-edge']).toBe('yes');
      const c = await get('decorated.test', signC('/p/r.bin', KEY, at));
      expect(c.headers['x-site']).toBe('d');
      expect(seen(c.body)).toBe('/p/r.bin');
      // A rewrite of the path without its signature wins over the signature's own change.
      expect(seen((await get('rewrite.test', signB('/old/page.html', KEY, at))).body)).toBe('/new/page.html');
      expect(seen((await get('rewrite.test', signB('/other.html', KEY, at))).body)).toBe('/other.html');
    }
  });

  it('logs each refusal with its reason, for the block log', async () => {
    await get('a.test', '/logged.pdf');
    await get('b.test', signB('/logged.mp4', KEY, now() - 3600));
    await eventually(async () => {
      const lines = (await readFile(edge.paths.accessLog, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { host: string; uri: string; status: number; block_reason: string });
      const find = (host: string) => lines.find((line) => line.host === host && line.uri.includes('/logged.'));
      expect(find('a.test')).toMatchObject({ status: 403, block_reason: 'kind=urlauth;action=deny;detail=missing' });
      expect(find('b.test')).toMatchObject({ status: 403, block_reason: 'kind=urlauth;action=deny;detail=expired' });
    });
  });
});
