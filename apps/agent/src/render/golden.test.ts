import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EdgeSnapshot } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { FIXTURE_CERT } from '../testing/fixture-cert.ts';
import { makeSite, makeSnapshot, makeStream } from '../testing/snapshots.ts';
import { renderTree } from './tree.ts';
import type { RenderOptions } from './types.ts';

/** Rendered configs are pinned here; `UPDATE_GOLDEN=1` rewrites the files after a deliberate change. */
const GOLDEN_DIR = join(import.meta.dirname, 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const OPTIONS: RenderOptions = {
  paths: {
    pidFile: '/var/lib/rampart-agent/nginx/run/nginx.pid',
    errorLog: '/var/lib/rampart-agent/logs/error.log',
    accessLog: '/var/lib/rampart-agent/logs/access.log',
    streamLog: '/var/lib/rampart-agent/logs/stream.log',
    tempDir: '/var/lib/rampart-agent/nginx/temp',
    cacheDir: '/var/lib/rampart-agent/cache',
    modulesDir: '/usr/lib/nginx/modules',
  },
  controlPort: 8190,
  listenAddress: '',
  workerProcesses: 'auto',
  nginxUser: 'www-data',
  applyId: 'golden',
};

const origin = (address: string, port: number, weight = 1, backup = false) => ({ address, port, weight, backup });

const SCENARIOS: Record<string, EdgeSnapshot> = {
  basic: makeSnapshot({
    version: 1,
    node: { http_port: 80, https_port: 443, max_cache_size_mb: 1024 },
    sites: [makeSite()],
  }),
  full: makeSnapshot({
    version: 42,
    node: { id: 3, http_port: 80, https_port: 443, max_cache_size_mb: 10_240 },
    certs: [{ id: 5, ...FIXTURE_CERT }],
    sites: [
      makeSite({
        id: 10,
        domains: ['secure.example.com', '*.wild.example.com'],
        origins: [
          origin('10.0.0.1', 8080, 3),
          origin('origin.example.com', 443, 1),
          origin('2001:db8::1', 8080, 1, true),
        ],
        balance: 'weighted',
        origin_protocol: 'https',
        origin_host: 'origin.example.com',
        https_listen: true,
        cert_id: 5,
        force_https: true,
        hsts: true,
        http2: true,
        websocket: true,
        gzip: true,
        request_headers: [
          { name: 'X-From-Edge', value: 'rampart (edge) 1/2' },
          { name: 'X-Forwarded-For', value: 'overridden' },
        ],
        response_headers: [{ name: 'X-Served-By', value: 'rampart' }],
        cache_rules: [
          { match: 'prefix', value: '/static/v1.2/', ttl: 86_400, ignore_query: true, honor_origin: false },
          { match: 'extension', value: 'css', ttl: 3600, ignore_query: false, honor_origin: true },
          { match: 'extension', value: 'html', ttl: 0, ignore_query: false, honor_origin: false },
        ],
      }),
      makeSite({
        id: 11,
        domains: ['follow.example.com'],
        origins: [origin('10.0.0.2', 80), origin('10.0.0.3', 80)],
        balance: 'ip_hash',
        origin_protocol: 'follow',
        https_listen: true,
        cert_id: 5,
      }),
      makeSite({ id: 12, domains: ['off.example.com'], enabled: false }),
    ],
    streams: [
      makeStream({
        id: 20,
        listen_port: 2222,
        origins: [origin('10.0.1.1', 22, 2), origin('10.0.1.2', 22, 1, true)],
        balance: 'weighted',
      }),
      makeStream({
        id: 21,
        listen_port: 5353,
        protocol: 'udp',
        origins: [origin('10.0.1.3', 53)],
        balance: 'ip_hash',
        proxy_protocol: true,
      }),
    ],
  }),
};

describe('rendered configuration (golden files)', () => {
  for (const [name, snapshot] of Object.entries(SCENARIOS)) {
    it(`renders the ${name} snapshot as pinned`, () => {
      const tree = renderTree(snapshot, OPTIONS);
      expect(tree.errors).toEqual([]);
      for (const file of tree.files.filter((f) => !f.path.startsWith('certs/'))) {
        const golden = join(GOLDEN_DIR, name, `${file.path.replaceAll('/', '.')}.golden`);
        if (UPDATE || !existsSync(golden)) {
          mkdirSync(join(GOLDEN_DIR, name), { recursive: true });
          writeFileSync(golden, file.content);
        }
        expect(file.content, golden).toBe(readFileSync(golden, 'utf8'));
      }
    });
  }

  it('writes certificates 0600 and configuration 0644', () => {
    const tree = renderTree(SCENARIOS.full!, OPTIONS);
    const modes = Object.fromEntries(tree.files.map((f) => [f.path, f.mode]));
    expect(modes).toMatchObject({
      'certs/5.pem': 0o600,
      'certs/5.key': 0o600,
      'nginx.conf': 0o644,
      'sites/10.conf': 0o644,
    });
  });
});
