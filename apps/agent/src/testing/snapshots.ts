import {
  DEFAULT_SITE_PROTECTION,
  type EdgeAcmeChallenge,
  type EdgeCert,
  type EdgeJob,
  type EdgeNodeSettings,
  type EdgeProtection,
  type EdgeSettings,
  type EdgeSite,
  type EdgeSnapshot,
  type EdgeStream,
  type EdgeUnknownHost,
  type SiteProtection,
} from '@rampart/contracts';

/** A site's protection settings: a new site's defaults with `overrides`. */
export function makeProtection(overrides: Partial<SiteProtection> = {}): SiteProtection {
  return { ...DEFAULT_SITE_PROTECTION, ...overrides };
}

/** Builders for snapshots in tests: valid by default, each field overridable. */
export function makeSite(overrides: Partial<EdgeSite> = {}): EdgeSite {
  return {
    id: 1,
    domains: ['www.example.com'],
    origins: [{ address: '127.0.0.1', port: 9001, weight: 1, backup: false }],
    balance: 'round_robin',
    origin_protocol: 'http',
    origin_host: '',
    http_listen: true,
    https_listen: false,
    cert_id: null,
    force_https: false,
    hsts: false,
    http2: false,
    websocket: false,
    gzip: false,
    request_headers: [],
    response_headers: [],
    cache_rules: [],
    enabled: true,
    ...overrides,
  };
}

export function makeStream(overrides: Partial<EdgeStream> = {}): EdgeStream {
  return {
    id: 1,
    listen_port: 9100,
    protocol: 'tcp',
    origins: [{ address: '127.0.0.1', port: 9200, weight: 1, backup: false }],
    balance: 'round_robin',
    proxy_protocol: false,
    enabled: true,
    ...overrides,
  };
}

export function makeSnapshot(
  parts: {
    version?: number;
    node?: Partial<EdgeNodeSettings>;
    sites?: EdgeSite[];
    streams?: EdgeStream[];
    certs?: EdgeCert[];
    jobs?: EdgeJob[];
    acme_challenges?: EdgeAcmeChallenge[];
    protection?: EdgeProtection;
    unknown_host?: EdgeUnknownHost;
    edge_settings?: EdgeSettings;
  } = {},
): EdgeSnapshot {
  return {
    version: parts.version ?? 1,
    node: { id: 1, http_port: 8080, https_port: 8443, max_cache_size_mb: 64, ...parts.node },
    sites: parts.sites ?? [],
    streams: parts.streams ?? [],
    certs: parts.certs ?? [],
    jobs: parts.jobs ?? [],
    acme_challenges: parts.acme_challenges ?? [],
    ...(parts.protection ? { protection: parts.protection } : {}),
    ...(parts.unknown_host ? { unknown_host: parts.unknown_host } : {}),
    ...(parts.edge_settings ? { edge_settings: parts.edge_settings } : {}),
  };
}
