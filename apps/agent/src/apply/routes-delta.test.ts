import { describe, expect, it } from 'vitest';
import { renderTree } from '../render/tree.ts';
import type { RenderOptions } from '../render/types.ts';
import { FIXTURE_CERT } from '../testing/fixture-cert.ts';
import { makeSite, makeSnapshot } from '../testing/snapshots.ts';
import { indexRoutes, routesDelta } from './routes-delta.ts';

const OPTIONS: RenderOptions = {
  controlPort: 8190,
  listenAddress: '127.0.0.1',
  workerProcesses: 1,
  nginxUser: null,
  applyId: 'a',
  treeDir: '/d/current',
  challengeSecret: '00',
  paths: {
    pidFile: '/d/pid',
    errorLog: '/d/error.log',
    accessLog: '/d/access.log',
    streamLog: '/d/stream.log',
    tempDir: '/d/temp',
    cacheDir: '/d/cache',
    modulesDir: '/m',
    luaDir: '/l',
  },
};
const routesOf = (parts: Parameters<typeof makeSnapshot>[0], applyId = 'a') =>
  renderTree(makeSnapshot(parts), { ...OPTIONS, applyId }).routes;
const cert = (id: number) => ({ id, cert_pem: FIXTURE_CERT.cert_pem, key_pem: FIXTURE_CERT.key_pem });
const https = (id: number, certId: number) =>
  makeSite({ id, domains: [`s${id}.test`], https_listen: true, http_listen: false, cert_id: certId });

describe('routesDelta', () => {
  it('carries only the sites and certificates that changed, were added or went, and the head whole', () => {
    const before = routesOf({
      version: 1,
      certs: [cert(1), cert(2)],
      sites: [
        makeSite({ id: 1, domains: ['one.test'] }),
        makeSite({ id: 2, domains: ['two.test'] }),
        https(3, 1),
        https(4, 2),
      ],
    });
    const after = routesOf(
      {
        version: 2,
        certs: [cert(1), cert(5)],
        sites: [
          makeSite({ id: 1, domains: ['one.test'] }),
          makeSite({ id: 2, domains: ['two.test', 'www.two.test'] }),
          https(3, 1),
          https(6, 5),
        ],
      },
      'b',
    );
    const delta = routesDelta(indexRoutes(before), after, indexRoutes(after));
    expect(delta?.delta.base).toBe(before.token);
    expect(delta?.token).toBe(after.token);
    expect(delta?.version).toBe(2);
    expect(delta?.delta.sites.map((site) => site.id)).toEqual([2, 6]);
    expect(delta?.delta.removed_sites).toEqual([4]);
    expect(Object.keys(delta?.delta.certs ?? {})).toEqual(['5']);
    expect(delta?.delta.removed_certs).toEqual(['2']);
    expect(delta).not.toHaveProperty('sites');
    expect(delta).not.toHaveProperty('protection');
  });

  it('is null when the protection changed (the edge compiles it for every site at once)', () => {
    const before = routesOf({ version: 1, sites: [makeSite({ id: 1 })] });
    const after = routesOf({
      version: 2,
      sites: [makeSite({ id: 1 })],
      protection: {
        rule_groups: [],
        acls: [],
        bans: [{ site_id: 0, cidr: '192.0.2.1', expires_at: 4_000_000_000 }],
        unbans: [],
      },
    });
    expect(routesDelta(indexRoutes(before), after, indexRoutes(after))).toBeNull();
  });
});
