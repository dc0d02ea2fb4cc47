import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EdgeSnapshot } from '@rampart/contracts';
import { Applier } from '../../src/apply/applier.ts';
import { findFastPathModule } from '../../src/apply/fast-path-module.ts';
import { Nginx } from '../../src/apply/nginx.ts';
import { defaultNginxUser, workerIds, workersAreOtherUser } from '../../src/apply/nginx-user.ts';
import { prepareDataDir } from '../../src/data-dir.ts';
import { silentLogger } from '../../src/logger.ts';
import { type AgentPaths, agentPaths } from '../../src/paths.ts';
import { makeSnapshot } from '../../src/testing/snapshots.ts';
import { freePort } from './ports.ts';

export const NGINX_BINARY = process.env.RAMPART_NGINX ?? '/usr/sbin/nginx';

/**
 * The edge's nginx module built for this nginx, or null (its tests then skip). CI builds it
 * (nginx-dev installed, RAMPART_REQUIRE_FAST_PATH=1): there a missing module fails instead.
 */
export function fastPathModuleOrSkip(): string | null {
  const module = findFastPathModule(NGINX_BINARY);
  if (module === null && process.env.RAMPART_REQUIRE_FAST_PATH === '1') {
    throw new Error("the edge's nginx module is not built for this nginx: npm run build:nginx-module");
  }
  return module;
}

export interface TestEdge {
  dataDir: string;
  paths: AgentPaths;
  nginx: Nginx;
  applier: Applier;
  /** A fresh applier on the same data directory, as a restarted agent would make. */
  newApplier: () => Applier;
  ports: { http: number; https: number; control: number };
  /** A snapshot with this edge's ports. */
  snapshot: (parts?: Parameters<typeof makeSnapshot>[0]) => EdgeSnapshot;
  /** Stops nginx (QUIT, by the pid in its pid file) and removes the data directory. */
  close: () => Promise<void>;
}

/** A private nginx on 127.0.0.1 high ports with its own temp data directory, driven through the applier. */
export async function createEdge(
  options: {
    dataDir?: string;
    proveTimeoutMs?: number;
    lookup?: (host: string) => Promise<string[]>;
    /** false: a node without ModSecurity and the CRS. */
    waf?: boolean;
    /** nginx worker processes (1 unless set). */
    workers?: number;
  } = {},
): Promise<TestEdge> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'rampart-edge-')));
  const paths = agentPaths(dataDir);
  await prepareDataDir(paths, workersAreOtherUser() ? workerIds(defaultNginxUser()) : null);
  const nginx = new Nginx({
    binary: NGINX_BINARY,
    prefix: paths.nginxDir,
    errorLog: paths.errorLog,
    pidFile: paths.pidFile,
  });
  const ports = { http: await freePort(), https: await freePort(), control: await freePort() };
  const newApplier = () =>
    new Applier({
      paths,
      nginx,
      render: {
        controlPort: ports.control,
        listenAddress: '127.0.0.1',
        workerProcesses: options.workers ?? 1,
        nginxUser: defaultNginxUser(),
      },
      modulesDir: '/usr/lib/nginx/modules',
      proveTimeoutMs: options.proveTimeoutMs ?? 5000,
      log: silentLogger,
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.waf === false ? { crs: null } : {}),
    });
  const applier = newApplier();
  return {
    dataDir,
    paths,
    nginx,
    applier,
    newApplier,
    ports,
    snapshot: (parts = {}) =>
      makeSnapshot({ ...parts, node: { http_port: ports.http, https_port: ports.https, ...parts.node } }),
    close: async () => {
      await nginx.stop(2000);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The worker pids of the edge's nginx now. */
export async function nginxWorkers(edge: TestEdge): Promise<string[]> {
  const master = (await readFile(edge.paths.pidFile, 'utf8')).trim();
  const children = (await readFile(`/proc/${master}/task/${master}/children`, 'utf8')).trim().split(/\s+/);
  const found: string[] = [];
  for (const pid of children) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('worker process')) found.push(pid);
  }
  return found;
}

/** The request header the origin sees on the requests the Lua router routed (`restartMarked`). */
export const LUA_MARK = 'x-test-router';

/**
 * The access log of a node with the module, as the agent renders it: `access_log off;` then
 * `rampart_access_log <path> buffer=… flush=…[ country][ waf];`. Groups: the indent, the quoted
 * path, the buffer and flush parameters.
 */
export const MODULE_ACCESS_LOG =
  /access_log off;\n(\s*)rampart_access_log ("[^"]+") (buffer=[^\s;]+ flush=[^\s;]+)[^;\n]*;/;

/** `text` with `anchor` replaced (each one with `all`); throws when the text has none. */
export function replaceIn(text: string, anchor: string, replacement: string, all = false): string {
  if (!text.includes(anchor)) throw new Error(`the live nginx.conf has no "${anchor}"`);
  return all ? text.replaceAll(anchor, replacement) : text.replace(anchor, replacement);
}

/**
 * Restarts the edge's nginx on its live config with a few lines more, so that a test sees which path
 * served each request: the Lua router sends the origin the header `LUA_MARK` ("lua"), and the access
 * log's `balancer` is "lua" when the Lua balancer chose the peer (the line then written by nginx's
 * log module). `more` changes the config further (with `replaceIn`, so that a missing anchor fails
 * the test). Answers the config the agent rendered.
 * A later apply that swaps the routing data in keeps the marked config running; one that reloads
 * nginx drops it.
 */
export async function restartMarked(edge: TestEdge, more: (conf: string) => string = (conf) => conf): Promise<string> {
  const live = join(edge.paths.currentLink, 'nginx.conf');
  const conf = await readFile(live, 'utf8');
  let marked = replaceIn(
    conf,
    'rewrite_by_lua_block { rampart_router.route() }',
    'rewrite_by_lua_block { ngx.var.rampart_test_router = "lua" rampart_router.route() }\n' +
      '            proxy_set_header X-Test-Router $rampart_test_router;',
  );
  marked = replaceIn(
    marked,
    'balancer_by_lua_block { rampart_balancer.pick() }',
    'balancer_by_lua_block { ngx.var.rampart_test_balancer = "lua" rampart_balancer.pick() }',
    true,
  );
  marked = replaceIn(
    marked,
    '"block_reason":"$rampart_block_reason"',
    '"block_reason":"$rampart_block_reason","balancer":"$rampart_test_balancer"',
  );
  // The marked line is written by nginx's log module, from the log_format the module's line follows.
  marked = marked.replace(MODULE_ACCESS_LOG, 'access_log $2 rampart_access $3;');
  marked = replaceIn(
    marked,
    'set $rampart_site_id "";',
    'set $rampart_site_id "";\n            set $rampart_test_router "";\n            set $rampart_test_balancer "";',
  );
  await writeFile(live, more(marked));
  await edge.nginx.stop();
  const started = await edge.nginx.start(live);
  if (!started.ok) throw new Error(`nginx refused the marked config: ${started.output}`);
  return conf;
}
