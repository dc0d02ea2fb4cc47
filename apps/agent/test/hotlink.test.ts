import { readFile } from 'node:fs/promises';
import { DEFAULT_SITE_HOTLINK, type SiteHotlink } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const hotlink = (overrides: Partial<SiteHotlink>): SiteHotlink => ({
  ...DEFAULT_SITE_HOTLINK,
  enabled: true,
  ...overrides,
});

describe('hotlink protection, through a real nginx', () => {
  let edge: TestEdge;
  let origin: Origin;

  beforeAll(async () => {
    edge = await createEdge();
    origin = await startOrigin('origin');
    const site = (id: number, domains: string[], links: SiteHotlink | undefined) =>
      makeSite({
        id,
        domains,
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        ...(links ? { hotlink: links } : {}),
      });
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 2,
        sites: [
          // Only its own pages and partners under partner.test; no Referer refused.
          site(1, ['img.test', '*.img.test'], hotlink({ allow: ['*.partner.test'], allow_empty: false })),
          // Every page but a denied one; no Referer allowed; refused requests are redirected.
          site(
            2,
            ['open.test'],
            hotlink({
              deny: ['thief.test'],
              extensions: ['png'],
              action: 'redirect',
              redirect_url: 'https://open.test/no-hotlinking.html',
            }),
          ),
          // Saved but off, and never set.
          site(3, ['off.test'], { ...hotlink({ allow: ['x.test'], allow_empty: false }), enabled: false }),
          site(4, ['plain.test'], undefined),
        ],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [] });
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  const get = (host: string, path: string, referer?: string) =>
    edgeRequest(edge.ports.http, { host, path, headers: referer === undefined ? {} : { referer } });

  it('lets the site’s own pages and the allowed hosts use its files, and refuses others with 403', async () => {
    expect((await get('img.test', '/a.png', 'http://img.test/page')).status).toBe(200);
    expect((await get('img.test', '/a.png', 'https://www.img.test/x?y=1')).status).toBe(200);
    expect((await get('img.test', '/a.PNG', 'https://cdn.partner.test:8443/')).status).toBe(200);
    expect((await get('img.test', '/a.png', 'https://partner.test/')).status).toBe(200);
    const refused = await get('img.test', '/a.png', 'https://other.test/steal');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Access denied');
    // Decided again the same way (each worker remembers its decisions by Referer), long ones too.
    expect((await get('img.test', '/b.png', 'https://other.test/steal')).status).toBe(403);
    expect((await get('img.test', '/b.png', 'http://img.test/page')).status).toBe(200);
    const long = `https://other.test/${'x'.repeat(600)}`;
    expect((await get('img.test', '/a.png', long)).status).toBe(403);
    expect((await get('img.test', '/a.png', long)).status).toBe(403);
    expect((await get('img.test', '/a.png', `https://cdn.partner.test/${'y'.repeat(600)}`)).status).toBe(200);
    // A look-alike name is not under the allowed one, nor is user info a host.
    expect((await get('img.test', '/a.png', 'https://evilpartner.test/')).status).toBe(403);
    expect((await get('img.test', '/a.png', 'https://partner.test@evil.test/')).status).toBe(403);
    // Without a Referer, or with one that names no host: refused here.
    expect((await get('img.test', '/a.png')).status).toBe(403);
    expect((await get('img.test', '/a.png', 'not a url')).status).toBe(403);
  });

  it('covers only the listed extensions', async () => {
    expect((await get('img.test', '/page.html', 'https://other.test/')).status).toBe(200);
    expect((await get('img.test', '/', 'https://other.test/')).status).toBe(200);
    expect((await get('open.test', '/a.jpg', 'https://thief.test/')).status).toBe(200);
  });

  it('refuses only the denied hosts when nothing is allowed, and redirects when the site says so', async () => {
    expect((await get('open.test', '/a.png', 'https://anyone.test/')).status).toBe(200);
    expect((await get('open.test', '/a.png')).status).toBe(200);
    const redirected = await get('open.test', '/a.png', 'https://thief.test/gallery');
    expect(redirected.status).toBe(302);
    expect(redirected.headers.location).toBe('https://open.test/no-hotlinking.html');
  });

  it('does nothing for a site with it off or never set', async () => {
    expect((await get('off.test', '/a.png', 'https://other.test/')).status).toBe(200);
    expect((await get('off.test', '/a.png')).status).toBe(200);
    expect((await get('plain.test', '/a.png', 'https://other.test/')).status).toBe(200);
  });

  it('logs a refused request with its reason, for the block log', async () => {
    await get('img.test', '/logged.png', 'https://logged.test/');
    await get('open.test', '/logged.png', 'https://thief.test/');
    await eventually(async () => {
      const lines = (await readFile(edge.paths.accessLog, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { host: string; uri: string; status: number; block_reason: string });
      const find = (host: string) => lines.find((line) => line.host === host && line.uri === '/logged.png');
      expect(find('img.test')).toMatchObject({
        status: 403,
        block_reason: 'kind=hotlink;action=deny;detail=referer logged.test',
      });
      expect(find('open.test')).toMatchObject({
        status: 302,
        block_reason: 'kind=hotlink;action=redirect;detail=referer thief.test',
      });
    });
  });
});
