// @vitest-environment jsdom
import { ROUTES, type RouteRecord } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from './consoleRoutes.ts';
import { isRouteHandle } from './routeHandle.ts';

const allRecords = (records: readonly RouteRecord[]): RouteRecord[] =>
  records.flatMap((record) => [record, ...allRecords(record.children ?? [])]);

describe('console routes', () => {
  const routes = consoleRoutes();
  const byPath = new Map(routes.map((route) => [`/${route.path}`, route]));

  it('have one route per record of ROUTES', () => {
    expect([...byPath.keys()].sort()).toEqual(
      allRecords(ROUTES)
        .map((record) => record.path)
        .sort(),
    );
  });

  it('redirect groups and title every page by its record (none is left to the 404 page)', () => {
    expect(byPath.get('/site')?.loader).toBeTypeOf('function');
    const op = byPath.get('/sys/op')?.handle;
    expect(isRouteHandle(op) && op.title).toBe('route.sys-op');
    const home = byPath.get('/home')?.handle;
    expect(isRouteHandle(home) && home.title).toBe('route.home');
  });

  it("gate each page by its own and its group's limits", () => {
    const handle = byPath.get('/node/list')?.handle;
    expect(isRouteHandle(handle) && handle.gates?.map((gate) => gate.auth)).toEqual([['admin:node'], undefined]);
  });

  it('carry the tab and keep-alive flags: pages open a tab, the log page is kept alive', () => {
    const handleOf = (path: string) => {
      const handle = byPath.get(path)?.handle;
      return isRouteHandle(handle) ? handle : undefined;
    };
    expect(handleOf('/log')).toMatchObject({ tabs: true, cache: true, trail: [{ title: 'route.log' }] });
    expect(handleOf('/site/list')).toMatchObject({ tabs: true, cache: true });
    expect(handleOf('/sys/op')).toMatchObject({
      tabs: true,
      trail: [{ title: 'route.sys' }, { title: 'route.sys-op' }],
    });
  });
});
