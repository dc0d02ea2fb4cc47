import type { GeoipCountryPath } from '@rampart/contracts';
import type { CrsPaths } from './waf.ts';

/** Absolute locations outside the versioned config tree that the rendered config refers to. */
export interface RenderPaths {
  pidFile: string;
  errorLog: string;
  accessLog: string;
  streamLog: string;
  tempDir: string;
  cacheDir: string;
  modulesDir: string;
  /** The agent's Lua modules (the `rampart` package). */
  luaDir: string;
  /**
   * The agent's nginx module of the fast path (nginx/build/ngx_http_rampart_module.so), built for
   * this node's nginx; absent: every request is routed in Lua.
   */
  fastPathModule?: string | null;
  /** The OWASP CRS of this node; absent where ModSecurity or the CRS is not installed (no WAF). */
  crs?: CrsPaths | null;
  /** Where ModSecurity writes the transactions its rules matched (JSON lines the agent reads). */
  wafAuditLog?: string;
  /** Session ticket keys (apply/ticket-keys.ts); absent: nginx makes its own at every reload. */
  ticketKeys?: { current: string; previous: string } | null;
  /**
   * The GeoIP database (.mmdb) client addresses are looked up in, and where its records hold the
   * country code; absent: no country lookups.
   */
  geoip?: { db: string; countryPath: GeoipCountryPath } | null;
}

export interface RenderOptions {
  paths: RenderPaths;
  /** Loopback port of the control server (version probe, stub_status, purge). */
  controlPort: number;
  /** Address every site and stream listens on; empty for all addresses. */
  listenAddress: string;
  workerProcesses: number | 'auto';
  /** `user` directive for worker processes (only meaningful when the agent runs as root). */
  nginxUser: string | null;
  /** Unique per render: the control server answers it so a probe proves this exact tree is live. */
  applyId: string;
  /** This node's key for signing challenge passes (hex); the same across applies, so passes survive reloads. */
  challengeSecret: string;
  /** Absolute directory this tree is written to (routes.json is read from it when nginx loads). */
  treeDir: string;
  /** Addresses of origin host names, looked up before rendering; a name missing here does not resolve. */
  resolved?: ReadonlyMap<string, readonly string[]>;
  /** Ids to leave out, found by a failed `nginx -t` or reload of an earlier attempt. */
  exclude?: { sites?: ReadonlySet<number>; streams?: ReadonlySet<number>; certs?: ReadonlySet<number> };
}

export interface RenderedFile {
  /** Relative to the config directory (nginx resolves includes against the directory of nginx.conf). */
  path: string;
  content: string;
  mode: number;
}
