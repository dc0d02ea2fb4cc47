import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EdgeSnapshot } from '@rampart/contracts';
import { Applier } from '../../src/apply/applier.ts';
import { findFastPathModule } from '../../src/apply/fast-path-module.ts';
import { Nginx } from '../../src/apply/nginx.ts';
import { defaultNginxUser, workersAreOtherUser } from '../../src/apply/nginx-user.ts';
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
  await prepareDataDir(paths, workersAreOtherUser());
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
