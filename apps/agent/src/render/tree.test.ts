import { describe, expect, it } from 'vitest';
import { FIXTURE_CERT } from '../testing/fixture-cert.ts';
import { makeSite, makeSnapshot, makeStream } from '../testing/snapshots.ts';
import { renderTree, SnapshotRejected, shapeOf } from './tree.ts';
import type { RenderOptions } from './types.ts';

const OPTIONS: RenderOptions = {
  paths: {
    pidFile: '/d/run/nginx.pid',
    errorLog: '/d/logs/error.log',
    accessLog: '/d/logs/access.log',
    streamLog: '/d/logs/stream.log',
    tempDir: '/d/temp',
    cacheDir: '/d/cache',
    modulesDir: '/usr/lib/nginx/modules',
    luaDir: '/usr/lib/rampart-agent/lua',
  },
  controlPort: 8190,
  listenAddress: '127.0.0.1',
  workerProcesses: 1,
  nginxUser: null,
  applyId: 'abc',
  treeDir: '/d/conf/v1-abc',
  challengeSecret: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
};
const paths = (snapshot: Parameters<typeof renderTree>[0], options = OPTIONS) =>
  renderTree(snapshot, options).files.map((f) => f.path);

describe('renderTree', () => {
  it('refuses a snapshot whose node settings are invalid', () => {
    expect(() => renderTree(makeSnapshot({ node: { http_port: 0 } }), OPTIONS)).toThrow(SnapshotRejected);
    expect(() => renderTree({ ...makeSnapshot(), version: -1 }, OPTIONS)).toThrow(SnapshotRejected);
  });

  it('carries the version and apply id in the routing data, which the control server answers', () => {
    const tree = renderTree(makeSnapshot({ version: 9 }), OPTIONS);
    expect(tree.token).toBe('9 abc');
    const routes = JSON.parse(tree.files.find((file) => file.path === 'routes.json')!.content);
    expect(routes).toMatchObject({ version: 9, token: '9 abc' });
    expect(tree.files[0]!.content).toContain('content_by_lua_block { require("rampart.routes").version_answer() }');
    expect(tree.files[0]!.content).toContain('listen 127.0.0.1:8190;');
  });

  it('renders the same nginx.conf and shape for trees whose routing data alone differs', () => {
    const site = (header: string) => makeSite({ id: 3, response_headers: [{ name: 'X-Change', value: header }] });
    const first = renderTree(makeSnapshot({ version: 9, sites: [site('a')] }), OPTIONS);
    const second = renderTree(makeSnapshot({ version: 10, sites: [site('b')] }), { ...OPTIONS, applyId: 'def' });
    expect(second.files[0]!.content).toBe(first.files[0]!.content);
    expect(shapeOf(second)).toBe(shapeOf(first));
    const routes = (tree: typeof first) => tree.files.find((file) => file.path === 'routes.json')!.content;
    expect(routes(second)).not.toBe(routes(first));
    // A change nginx itself must read (a cache rule with a new lifetime) is a new shape.
    const cached = makeSite({
      id: 3,
      cache_rules: [{ match: 'prefix', value: '/img/', ttl: 61, ignore_query: false, honor_origin: false }],
    });
    const third = renderTree(makeSnapshot({ version: 11, sites: [cached] }), OPTIONS);
    expect(shapeOf(third)).not.toBe(shapeOf(first));
  });

  it('leaves out disabled sites and sites that listen nowhere, without an error', () => {
    const tree = renderTree(
      makeSnapshot({
        sites: [makeSite({ id: 1, enabled: false }), makeSite({ id: 2, http_listen: false }), makeSite({ id: 3 })],
      }),
      OPTIONS,
    );
    expect(tree.sites).toEqual([3]);
    expect(tree.errors).toEqual([]);
  });

  it('reports sites that cannot render: HTTPS without a usable certificate, backup-only or ip_hash with backups', () => {
    const tree = renderTree(
      makeSnapshot({
        certs: [{ id: 2, cert_pem: FIXTURE_CERT.cert_pem, key_pem: 'garbage' }],
        sites: [
          makeSite({ id: 1, https_listen: true, cert_id: null }),
          makeSite({ id: 2, https_listen: true, cert_id: 9 }),
          makeSite({ id: 3, https_listen: true, cert_id: 2 }),
          makeSite({ id: 4, origins: [{ address: '10.0.0.1', port: 80, weight: 1, backup: true }] }),
          makeSite({
            id: 5,
            balance: 'ip_hash',
            origins: [
              { address: '10.0.0.1', port: 80, weight: 1, backup: false },
              { address: '10.0.0.2', port: 80, weight: 1, backup: true },
            ],
          }),
          makeSite({ id: 6, request_headers: [{ name: 'Connection', value: 'close' }] }),
          makeSite({ id: 7, origins: [{ address: '1:2', port: 80, weight: 1, backup: false }] }),
        ],
      }),
      OPTIONS,
    );
    expect(tree.sites).toEqual([]);
    expect(tree.errors.map((e) => `${e.kind} ${e.id}: ${e.error}`)).toEqual([
      'cert 2: not PEM',
      'site 1: HTTPS is on but no certificate is set',
      'site 2: certificate 9 is missing or invalid on this node',
      'site 3: certificate 2 is missing or invalid on this node',
      'site 4: at least one origin must not be a backup',
      'site 5: ip_hash balancing cannot use backup origins',
      'site 6: refused to render: request_headers[0].name: reserved header',
      'site 7: 1:2 is not a valid IPv6 address',
    ]);
  });

  it('writes a certificate only when a rendered site uses it', () => {
    const snapshot = makeSnapshot({
      certs: [
        { id: 1, ...FIXTURE_CERT },
        { id: 2, ...FIXTURE_CERT },
      ],
      sites: [makeSite({ id: 1, domains: ['secure.example.com'], https_listen: true, cert_id: 1 })],
    });
    expect(paths(snapshot)).toEqual(['nginx.conf', 'certs/1.pem', 'certs/1.key', 'routes.json', 'meta.json']);
    const routes = JSON.parse(renderTree(snapshot, OPTIONS).files.find((f) => f.path === 'routes.json')!.content);
    expect(Object.keys(routes.certs)).toEqual(['1']);
  });

  it('serves a domain from the first site that claims it and reports the others', () => {
    const tree = renderTree(
      makeSnapshot({
        sites: [
          makeSite({ id: 1, domains: ['a.example.com'] }),
          makeSite({ id: 2, domains: ['a.example.com', 'b.example.com'] }),
          makeSite({ id: 3, domains: ['a.example.com'] }),
        ],
      }),
      OPTIONS,
    );
    expect(tree.sites).toEqual([1, 2]);
    const routes = JSON.parse(tree.files.find((f) => f.path === 'routes.json')!.content);
    expect(routes.sites.map((site: { hosts: string[] }) => site.hosts)).toEqual([['a.example.com'], ['b.example.com']]);
    expect(tree.errors.map((e) => e.id)).toEqual([2, 3]);
  });

  it('reports streams on ports already taken and duplicate ids', () => {
    const tree = renderTree(
      makeSnapshot({
        node: { http_port: 8080 },
        streams: [
          makeStream({ id: 1, listen_port: 8080 }),
          makeStream({ id: 2, listen_port: 8190 }),
          makeStream({ id: 3, listen_port: 9000 }),
          makeStream({ id: 4, listen_port: 9000 }),
          makeStream({ id: 5, listen_port: 9000, protocol: 'udp' }),
          makeStream({ id: 5, listen_port: 9001 }),
        ],
      }),
      OPTIONS,
    );
    expect(tree.streams).toEqual([3, 5]);
    expect(tree.errors.map((e) => `${e.id}: ${e.error}`)).toEqual([
      '1: tcp/8080 is already used by the node HTTP port',
      '2: tcp/8190 is already used by the agent control port',
      '4: tcp/9000 is already used by stream 3',
      '5: the same stream id appears twice in the snapshot',
    ]);
  });

  it('leaves out what an earlier attempt found nginx rejects', () => {
    const snapshot = makeSnapshot({
      sites: [makeSite({ id: 1 }), makeSite({ id: 2, domains: ['two.example.com'] })],
      streams: [makeStream({ id: 3 })],
    });
    const tree = renderTree(snapshot, { ...OPTIONS, exclude: { sites: new Set([1]), streams: new Set([3]) } });
    expect(tree.sites).toEqual([2]);
    expect(tree.streams).toEqual([]);
    expect(tree.files[0]!.content).not.toContain('rampart_stream escape=json');
  });

  it('explains schema failures with the field description', () => {
    const tree = renderTree(
      makeSnapshot({
        sites: [makeSite({ id: 1, origins: [{ address: '10.0.0.1', port: 0, weight: 1, backup: false }] })],
      }),
      OPTIONS,
    );
    expect(tree.errors[0]?.error).toBe('/origins/0/port must be a port from 1 to 65535');
  });
});
