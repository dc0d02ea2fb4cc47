import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_EDGE_SETTINGS,
  DEFAULT_SITE_HOTLINK,
  DEFAULT_SITE_PROTECTION,
  type EdgeSnapshot,
} from '@rampart/contracts';
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
    luaDir: '/usr/lib/rampart-agent/lua',
    crs: {
      setup: '/etc/modsecurity/crs/crs-setup.conf',
      rulesDir: '/usr/share/modsecurity-crs/rules',
      unicodeMap: '/etc/nginx/unicode.mapping',
    },
    wafAuditLog: '/var/lib/rampart-agent/logs/waf-audit.log',
    ticketKeys: {
      current: '/var/lib/rampart-agent/tls/ticket-current.key',
      previous: '/var/lib/rampart-agent/tls/ticket-previous.key',
    },
  },
  controlPort: 8190,
  listenAddress: '',
  workerProcesses: 'auto',
  nginxUser: 'www-data',
  applyId: 'golden',
  treeDir: '/var/lib/rampart-agent/nginx/conf/v1-golden',
  challengeSecret: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
  resolved: new Map([['origin.example.com', ['192.0.2.10', '2001:db8::10']]]),
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
    protection: {
      rule_groups: [
        {
          id: 7,
          rules: [
            {
              match_id: 1,
              filter_id: 2,
              conditions: [{ field: 'path', op: 'prefix', values: ['/login'], negate: false }],
              filter: { name: 'login rate', type: 'rate', requests: 10, seconds: 60, per: 'ip_url' },
              action: 'ban',
              ban_seconds: 600,
            },
          ],
        },
        {
          id: 8,
          rules: [
            {
              match_id: 3,
              filter_id: 4,
              conditions: [
                { field: 'header', header: 'X-Api-Key', op: 'equals', values: ['k'], negate: true },
                { field: 'user_agent', op: 'regex', values: ['(?i)curl|wget'], negate: false },
              ],
              filter: { name: 'browser check', type: 'js', valid_seconds: 3600 },
              action: 'block',
              ban_seconds: 600,
            },
          ],
        },
      ],
      acls: [
        {
          site_id: 13,
          entries: [
            { action: 'allow', condition: { field: 'ip', op: 'cidr', values: ['198.51.100.7'], negate: false } },
            {
              action: 'deny',
              condition: { field: 'referer', op: 'contains', values: ['spam.example'], negate: false },
            },
            { action: 'deny', condition: { field: 'country', op: 'equals', values: ['KP', 'IR'], negate: false } },
          ],
        },
      ],
      bans: [{ site_id: 0, cidr: '203.0.113.0/24', expires_at: 1_900_000_000 }],
      unbans: [{ site_id: 13, ip: '203.0.113.50', until: 1_900_000_000 }],
    },
    node: { id: 3, http_port: 80, https_port: 443, max_cache_size_mb: 10_240 },
    // Requests no site serves: a profile of their own, from the admin's WAF defaults.
    unknown_host: { action: 'page', waf: { mode: 'block', paranoia: 2, exclusions: [] } },
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
      makeSite({
        id: 13,
        domains: ['guarded.example.com'],
        protection: {
          rule_group_id: 7,
          attack_rule_group_id: 8,
          under_attack: true,
          whitelist: ['192.0.2.0/24'],
          waf: { mode: 'off', paranoia: 1, exclusions: [] },
        },
      }),
      makeSite({
        id: 14,
        domains: ['waf.example.com'],
        cache_rules: [{ match: 'prefix', value: '/static/', ttl: 600, ignore_query: true, honor_origin: false }],
        protection: {
          ...DEFAULT_SITE_PROTECTION,
          waf: { mode: 'block', paranoia: 2, exclusions: [942100, 920350, 942100] },
        },
      }),
      makeSite({
        id: 15,
        domains: ['watched.example.com'],
        protection: {
          ...DEFAULT_SITE_PROTECTION,
          waf: { mode: 'detect', paranoia: 1, exclusions: [], inspect_static: true },
        },
      }),
      makeSite({
        id: 16,
        domains: ['img.example.com', '*.img.example.com'],
        hotlink: {
          enabled: true,
          allow: ['*.partner.example.net', 'friend.example.org'],
          deny: ['thief.example.net'],
          allow_empty: false,
          extensions: ['png', 'JPG', 'mp4'],
          action: 'redirect',
          redirect_url: 'https://img.example.com/no-hotlinking.html',
        },
        url_auth: {
          enabled: true,
          type: 'b',
          key: 'PrimaryKey0123456789',
          backup_key: 'BackupKey98765432100',
          ttl: 3600,
          paths: ['/private/'],
          extensions: ['MP4', 'pdf'],
        },
        // Checked from the edge with the site's first name that is no wildcard as its Host.
        health_check: {
          enabled: true,
          path: '/healthz?deep=1',
          host: '',
          statuses: [200, 204],
          interval: 5,
          timeout: 2,
          failures: 3,
          successes: 2,
        },
      }),
      // Saved but off: nothing of it reaches the routes.
      makeSite({
        id: 17,
        domains: ['unlinked.example.com'],
        hotlink: { ...DEFAULT_SITE_HOTLINK, allow: ['x.example.net'] },
        // Its own pages travel in routes.json, never in nginx.conf.
        error_pages: { '502': '<!doctype html><h1>Back soon</h1>', waf: '<h1>"Refused"; {not} $config</h1>' },
      }),
      // Redirects and rewrites: data in routes.json, targets split at their captures.
      makeSite({
        id: 18,
        domains: ['moved.example.com', 'www.moved.example.com'],
        redirects: {
          host: 'to_www',
          trailing_slash: 'add',
          rules: [
            { match: 'exact', value: '/old', action: 'redirect', status: 301, target: '/new', keep_query: true },
            {
              match: 'regex',
              value: '^/item/([0-9]+)/(\\w+)$',
              action: 'redirect',
              status: 308,
              target: 'https://shop.example.net/$2?id=$1',
              keep_query: false,
            },
            {
              match: 'prefix',
              value: '/static/',
              action: 'rewrite',
              status: 301,
              target: '/assets/$1',
              keep_query: true,
            },
          ],
        },
      }),
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
  // The fleet's settings (/config/nginx, /config/res, /config/error) with a WAF site, whose locations
  // repeat the error pages.
  settings: makeSnapshot({
    version: 7,
    node: { http_port: 80, https_port: 443, max_cache_size_mb: 1024 },
    certs: [{ id: 5, ...FIXTURE_CERT }],
    sites: [
      makeSite({ id: 1, https_listen: true, cert_id: 5, http2: true, domains: ['www.example.com'] }),
      makeSite({
        id: 2,
        domains: ['waf.example.com'],
        protection: { ...DEFAULT_SITE_PROTECTION, waf: { mode: 'block', paranoia: 1, exclusions: [] } },
      }),
    ],
    edge_settings: {
      nginx: {
        ...DEFAULT_EDGE_SETTINGS.nginx,
        worker_processes: 8,
        worker_connections: 20000,
        keepalive_timeout: 30,
        keepalive_requests: 500,
        client_max_body_size_mb: 0,
        client_body_buffer_kb: 128,
        client_header_buffer_kb: 4,
        large_header_buffers: 8,
        large_header_buffer_kb: 32,
        gzip: false,
        gzip_level: 6,
        gzip_types: ['text/html', 'text/css', 'application/wasm'],
        http2: false,
        proxy_connect_timeout: 3,
        proxy_read_timeout: 120,
        proxy_send_timeout: 90,
      },
      res: { cache_max_size_mb: 4096, cache_path: '/srv/cache/rampart', log_spool_mb: 64, max_open_files: 200000 },
      error_pages: {
        default_language: 'en-US',
        pages: {
          '404': { 'zh-CN': '<h1>页面不存在</h1>\n', 'en-US': '<h1>Not here</h1>\n' },
          '502': { 'en-US': '<h1>Origin down</h1>\n' },
          waf: { 'zh-CN': '<h1>已拦截</h1>\n' },
        },
      },
    },
  }),
  // Sites and a stream of inactive packages (the suspension page, a throttle) and a bandwidth cap.
  enforcement: makeSnapshot({
    version: 9,
    node: { http_port: 80, https_port: 443, max_cache_size_mb: 1024 },
    sites: [
      makeSite({ id: 1, domains: ['suspended.example.com'], enforcement: { mode: 'suspend', reason: 'traffic' } }),
      makeSite({ id: 2, domains: ['throttled.example.com'], enforcement: { mode: 'throttle', rate_kbps: 64 } }),
      makeSite({
        id: 3,
        domains: ['capped.example.com'],
        bandwidth_bps: 1_250_000,
        cache_rules: [{ match: 'prefix', value: '/static/', ttl: 600, ignore_query: true, honor_origin: false }],
      }),
    ],
    streams: [makeStream({ id: 30, listen_port: 2222, enforcement: { mode: 'throttle', rate_kbps: 64 } })],
  }),
};

describe('rendered configuration (golden files)', () => {
  for (const [name, snapshot] of Object.entries(SCENARIOS)) {
    it(`renders the ${name} snapshot as pinned`, () => {
      // The full node holds a GeoIP database (country conditions, the log's country column).
      const geoip =
        name === 'full'
          ? { db: '/var/lib/rampart-agent/geoip/00ff.mmdb', countryPath: 'country.iso_code' as const }
          : null;
      // ... and the agent's nginx module of the fast path.
      const fastPathModule = name === 'full' ? '/usr/lib/rampart-agent/nginx/ngx_http_rampart_module.so' : null;
      const tree = renderTree(snapshot, { ...OPTIONS, paths: { ...OPTIONS.paths, geoip, fastPathModule } });
      expect(tree.errors).toEqual([]);
      for (const file of tree.files.filter((f) => !f.path.startsWith('certs/'))) {
        const golden = join(GOLDEN_DIR, name, `${file.path.replaceAll('/', '.')}.golden`);
        // routes.json is one line on the edge; pinned indented so a change reads as a diff.
        const content = file.path.endsWith('.json')
          ? `${JSON.stringify(JSON.parse(file.content), null, 2)}\n`
          : file.content;
        if (UPDATE || !existsSync(golden)) {
          mkdirSync(join(GOLDEN_DIR, name), { recursive: true });
          writeFileSync(golden, content);
        }
        expect(content, golden).toBe(readFileSync(golden, 'utf8'));
      }
    });
  }

  it('writes certificates 0600 and configuration 0644', () => {
    const tree = renderTree(SCENARIOS.full!, OPTIONS);
    const modes = Object.fromEntries(tree.files.map((f) => [f.path, f.mode]));
    expect(modes).toMatchObject({
      'certs/5.pem': 0o600,
      'certs/5.key': 0o600,
      'routes.json': 0o600,
      'nginx.conf': 0o644,
    });
  });
});
