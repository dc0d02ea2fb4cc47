import { DEFAULT_EDGE_SETTINGS, type EdgeSettings, type EdgeSite, type EdgeStream } from '@rampart/contracts';
import { HOSTILE_VALUES as HOSTILE } from '@rampart/contracts/testing';
import { describe, expect, it } from 'vitest';
import { makeSite, makeSnapshot, makeStream } from '../testing/snapshots.ts';
import { renderMainConfig, versionToken } from './nginx-conf.ts';
import { RenderRefusal } from './quote.ts';
import { siteRoute, siteRouteBody } from './site-route.ts';
import { renderStream, renderStreamBody } from './stream.ts';
import { renderTree, SnapshotRejected } from './tree.ts';
import type { RenderOptions } from './types.ts';

/** Values made of harmless characters that are still not what the field allows (shape, not syntax). */
const MISSHAPEN = ['evil.example proxy_pass', 'include /etc/passwd', 'x y', '', ' ', '-', '../../etc/passwd'];

type Path = Array<string | number>;

/** A site with one redirect rule (an exact path, so that every value of `value` is checked as a path). */
const REDIRECTS: EdgeSite['redirects'] = {
  host: 'off',
  trailing_slash: 'off',
  rules: [{ match: 'exact', value: '/old', action: 'redirect', status: 301, target: '/new', keep_query: true }],
};

/** `shape: false`: any text of safe characters is a valid value (header values); '' is valid for origin_host. */
const SITE_FIELDS: Array<{ path: Path; base?: Partial<EdgeSite>; shape?: false; empty?: true }> = [
  { path: ['domains', 0] },
  { path: ['origins', 0, 'address'] },
  { path: ['origins', 0, 'port'] },
  { path: ['origins', 0, 'weight'], base: { balance: 'weighted' } },
  { path: ['origin_host'], empty: true },
  { path: ['balance'] },
  { path: ['origin_protocol'] },
  { path: ['request_headers', 0, 'name'], base: { request_headers: [{ name: 'X-A', value: 'b' }] } },
  { path: ['request_headers', 0, 'value'], base: { request_headers: [{ name: 'X-A', value: 'b' }] }, shape: false },
  { path: ['response_headers', 0, 'name'], base: { response_headers: [{ name: 'X-A', value: 'b' }] } },
  { path: ['response_headers', 0, 'value'], base: { response_headers: [{ name: 'X-A', value: 'b' }] }, shape: false },
  { path: ['cache_rules', 0, 'value'], base: { cache_rules: [rule('prefix', '/static/')] } },
  { path: ['cache_rules', 0, 'value'], base: { cache_rules: [rule('extension', 'css')] } },
  { path: ['cache_rules', 0, 'match'], base: { cache_rules: [rule('prefix', '/static/')] } },
  { path: ['cache_rules', 0, 'ttl'], base: { cache_rules: [rule('prefix', '/static/')] } },
  { path: ['id'] },
  { path: ['enforcement', 'mode'], base: { enforcement: { mode: 'throttle', rate_kbps: 64 } } },
  { path: ['enforcement', 'reason'], base: { enforcement: { mode: 'suspend', reason: 'expired' } } },
  { path: ['enforcement', 'rate_kbps'], base: { enforcement: { mode: 'throttle', rate_kbps: 64 } } },
  { path: ['bandwidth_bps'], base: { bandwidth_bps: 1_000_000 } },
  ...(['value', 'target', 'match', 'status', 'action'] as const).map((field) => ({
    path: ['redirects', 'rules', 0, field],
    base: { redirects: REDIRECTS },
  })),
  { path: ['redirects', 'host'], base: { redirects: REDIRECTS } },
  { path: ['redirects', 'trailing_slash'], base: { redirects: REDIRECTS } },
];

const STREAM_FIELDS: Path[] = [
  ['enforcement', 'rate_kbps'],
  ['listen_port'],
  ['protocol'],
  ['balance'],
  ['id'],
  ['origins', 0, 'address'],
  ['origins', 0, 'port'],
];

function rule(match: 'prefix' | 'extension', value: string) {
  return { match, value, ttl: 60, ignore_query: false, honor_origin: false };
}

function withValue<T>(base: T, path: Path, value: unknown): T {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path.at(-1)!] = value;
  return copy as T;
}

/** Every stream field is checked on a throttled stream, so that its rate is one of them. */
const throttledStream = makeStream({ enforcement: { mode: 'throttle', rate_kbps: 64 } });

const siteContext = { resolved: new Map([['origin.example.com', ['192.0.2.1']]]) };

const OPTIONS: RenderOptions = {
  paths: {
    pidFile: '/data/nginx/run/nginx.pid',
    errorLog: '/data/logs/error.log',
    accessLog: '/data/logs/access.log',
    streamLog: '/data/logs/stream.log',
    tempDir: '/data/nginx/temp',
    cacheDir: '/data/cache',
    modulesDir: '/usr/lib/nginx/modules',
    luaDir: '/usr/lib/rampart-agent/lua',
  },
  controlPort: 8190,
  listenAddress: '',
  workerProcesses: 'auto',
  nginxUser: null,
  applyId: 'test',
  treeDir: '/data/nginx/conf/v1-test',
  challengeSecret: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
};

describe('the renderer refuses hostile values', () => {
  for (const { path, base, shape, empty } of SITE_FIELDS) {
    const name = `site ${path.join('.')}${base?.cache_rules ? ` (${base.cache_rules[0]!.match})` : ''}`;
    it(`${name}: every hostile value is refused, with and without the schema check`, () => {
      const misshapen = shape === false ? [] : MISSHAPEN.filter((value) => !(empty && value === ''));
      for (const value of [...HOSTILE, ...misshapen]) {
        const site = withValue(makeSite(base), path, value);
        expect(() => siteRoute(site, siteContext), JSON.stringify(value)).toThrow(RenderRefusal);
      }
      for (const value of HOSTILE) {
        const site = withValue(makeSite(base), path, value);
        expect(() => siteRouteBody(site, siteContext), JSON.stringify(value)).toThrow(RenderRefusal);
      }
    });
  }

  for (const path of STREAM_FIELDS) {
    it(`stream ${path.join('.')}: every hostile value is refused, with and without the schema check`, () => {
      for (const value of [...HOSTILE, ...MISSHAPEN]) {
        const stream = withValue(throttledStream, path, value);
        expect(() => renderStream(stream as EdgeStream, ''), JSON.stringify(value)).toThrow(RenderRefusal);
      }
      for (const value of HOSTILE) {
        const stream = withValue(throttledStream, path, value);
        expect(() => renderStreamBody(stream as EdgeStream, ''), JSON.stringify(value)).toThrow(RenderRefusal);
      }
    });
  }

  it('node settings and agent options: hostile values are refused', () => {
    const node = makeSnapshot().node;
    for (const value of HOSTILE) {
      for (const field of ['http_port', 'https_port', 'max_cache_size_mb'] as const) {
        expect(() => renderMainConfig({ ...node, [field]: value }, OPTIONS)).toThrow(RenderRefusal);
      }
      expect(() => versionToken(1, value)).toThrow(RenderRefusal);
      expect(() => renderMainConfig(node, { ...OPTIONS, listenAddress: value })).toThrow(RenderRefusal);
      expect(() => renderMainConfig(node, { ...OPTIONS, nginxUser: value })).toThrow(RenderRefusal);
      expect(() => renderMainConfig(node, { ...OPTIONS, paths: { ...OPTIONS.paths, accessLog: value } })).toThrow(
        RenderRefusal,
      );
      expect(() => renderMainConfig(node, { ...OPTIONS, treeDir: value })).toThrow(RenderRefusal);
      expect(() => renderMainConfig(node, { ...OPTIONS, paths: { ...OPTIONS.paths, luaDir: value } })).toThrow(
        RenderRefusal,
      );
    }
  });

  it('a snapshot full of hostile sites renders the good ones and reports every bad one', () => {
    const sites = HOSTILE.map((value, i) => withValue(makeSite({ id: 100 + i }), ['domains', 0], value));
    const streams = HOSTILE.map((value, i) =>
      withValue(makeStream({ id: 200 + i, listen_port: 9000 + i }), ['origins', 0, 'address'], value),
    );
    const tree = renderTree(
      makeSnapshot({ sites: [makeSite({ id: 1 }), ...sites], streams: [makeStream({ id: 2 }), ...streams] }),
      OPTIONS,
    );
    expect(tree.sites).toEqual([1]);
    expect(tree.streams).toEqual([2]);
    expect(tree.errors).toHaveLength(HOSTILE.length * 2);
    // The config is exactly what the good site and stream alone render to.
    const clean = renderTree(makeSnapshot({ sites: [makeSite({ id: 1 })], streams: [makeStream({ id: 2 })] }), OPTIONS);
    const configOf = (files: typeof tree.files) => files.filter((file) => file.path !== 'meta.json');
    expect(configOf(tree.files)).toEqual(configOf(clean.files));
  });

  it('a hostile certificate is refused before anything is written', () => {
    const tree = renderTree(
      makeSnapshot({
        certs: [{ id: 1, cert_pem: '-----BEGIN CERTIFICATE-----\n"; include /etc/passwd;\n', key_pem: 'x' }],
        sites: [makeSite({ id: 1, https_listen: true, cert_id: 1 })],
      }),
      OPTIONS,
    );
    expect(tree.errors.map((e) => [e.kind, e.id])).toEqual([
      ['cert', 1],
      ['site', 1],
    ]);
    expect(tree.files.map((f) => f.path)).toEqual(['nginx.conf', 'routes.json', 'meta.json']);
    expect(tree.files.find((f) => f.path === 'routes.json')?.content).not.toContain('include');
  });

  it('edge settings: every hostile value is refused by the snapshot check and again by the renderer', () => {
    const fields: Path[] = [
      ['nginx', 'worker_processes'],
      ['nginx', 'worker_connections'],
      ['nginx', 'keepalive_timeout'],
      ['nginx', 'client_max_body_size_mb'],
      ['nginx', 'large_header_buffer_kb'],
      ['nginx', 'gzip_level'],
      ['nginx', 'gzip_types', 0],
      ['nginx', 'proxy_read_timeout'],
      ['res', 'cache_max_size_mb'],
      ['res', 'cache_path'],
      ['res', 'max_open_files'],
      ['error_pages', 'default_language'],
    ];
    const node = makeSnapshot().node;
    for (const path of fields) {
      for (const value of [...HOSTILE, 'text/css gzip_static', '/a/../../etc', -1, 1e12, 1.5]) {
        const settings = withValue(DEFAULT_EDGE_SETTINGS, path, value) as EdgeSettings;
        const label = `${path.join('.')} = ${JSON.stringify(value)}`;
        expect(() => renderTree(makeSnapshot({ edge_settings: settings }), OPTIONS), label).toThrow(SnapshotRejected);
        // Past the schema (a renderer called directly): the value is still never written.
        if (path[0] === 'error_pages') continue;
        const parts = { hasStreams: false, http: { defaultCert: null, http2: false, cacheProfiles: [] }, settings };
        expect(() => renderMainConfig(node, { ...OPTIONS }, { ...parts, fleetWorkers: true }), label).toThrow(
          RenderRefusal,
        );
      }
    }
  });

  it('error page bodies become files of the tree and never enter the configuration', () => {
    const body = '<h1>"; return 200 "pwned; include /etc/passwd; } server { listen 1; } #</h1>$host\n';
    const settings: EdgeSettings = {
      ...DEFAULT_EDGE_SETTINGS,
      error_pages: { default_language: 'zh-CN', pages: { '502': { 'zh-CN': body }, '404': { 'en-US': body } } },
    };
    const tree = renderTree(makeSnapshot({ sites: [makeSite()], edge_settings: settings }), OPTIONS);
    const files = Object.fromEntries(tree.files.map((file) => [file.path, file.content]));
    expect(files['errors/zh-CN/502.html']).toBe(body);
    expect(files['errors/en-US/404.html']).toBe(body);
    expect(files['nginx.conf']).not.toContain('pwned');
    expect(files['nginx.conf']).toContain('error_page 502 /.rampart-errors/502;');
  });
});
