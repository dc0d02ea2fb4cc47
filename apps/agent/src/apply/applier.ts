import { createHash, createHmac, randomBytes } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import type { ApplyError, EdgeSnapshot } from '@rampart/contracts';
import { readOrCreateKey } from '../fs-atomic.ts';
import { geoipForRender } from '../geoip/geoip-store.ts';
import { localRequest } from '../local-http.ts';
import { errorText, type Logger } from '../logger.ts';
import { type AgentPaths, LUA_DIR } from '../paths.ts';
import { type RenderedTree, renderTree, shapeOf } from '../render/tree.ts';
import type { RenderOptions } from '../render/types.ts';
import type { CrsPaths } from '../render/waf.ts';
import { attributeTestFailure, failedBindPorts, firstFatal } from './attribution.ts';
import { ConfigStore, type ProvenConfig } from './config-store.ts';
import { findFastPathModule } from './fast-path-module.ts';
import type { Nginx } from './nginx.ts';
import { proveLive, refusedSites } from './probe.ts';
import { type Lookup, resolveOrigins } from './resolve.ts';
import { indexRoutes, type RoutesDelta, type RoutesIndex, routesDelta } from './routes-delta.ts';
import { ensureTicketKeys, ticketKeyFiles } from './ticket-keys.ts';
import { findCrs } from './waf-runtime.ts';

export interface ApplierOptions {
  paths: AgentPaths;
  nginx: Nginx;
  render: Pick<RenderOptions, 'controlPort' | 'listenAddress' | 'workerProcesses' | 'nginxUser'>;
  modulesDir: string;
  /** How long a reload has to show the new version on the control server. */
  proveTimeoutMs: number;
  /** DNS lookup of origin host names (the system resolver unless replaced). */
  lookup?: Lookup;
  /** The node's OWASP CRS; found on disk when absent (null: this node has no WAF). */
  crs?: CrsPaths | null;
  /** The agent's nginx module of the fast path; found when absent (null: every request is routed in Lua). */
  fastPathModule?: string | null;
  log: Logger;
}

export interface ApplyOutcome {
  /** The snapshot (less what was skipped) is live and proven. */
  applied: boolean;
  version: number;
  /** The proven version now live, if any. */
  liveVersion: number | null;
  /** Sites, streams and certificates left out, and why. */
  errors: ApplyError[];
  /** Why the snapshot is not live; empty when it is. */
  error: string;
  /** What went live other than asked (nginx refused the GeoIP database: no country lookups). */
  notice?: string;
}

/** Rounds of leaving out what nginx rejects (unresolvable origins are found before the first). */
const MAX_ATTEMPTS = 12;

/**
 * Render → write a new tree → `nginx -t` → swap it in → start or reload → prove the version is
 * live; otherwise roll back to the last proven tree. A site, stream or certificate that nginx
 * rejects is left out and the rest tried again.
 */
export class Applier {
  readonly store: ConfigStore;
  private readonly options: ApplierOptions;
  private queue: Promise<unknown> = Promise.resolve();
  private liveCacheDir: string | null = null;
  /** The routing data the workers serve, when this agent put it there (what a swap's delta starts from). */
  private liveRoutes: RoutesIndex | null = null;
  /** GeoIP databases (by sha256) nginx refused to open: configs leave them out. */
  private readonly geoipRefused = new Set<string>();

  constructor(options: ApplierOptions) {
    this.options = options;
    this.store = new ConfigStore(options.paths);
  }

  /**
   * How long to wait for a version to answer: the configured time plus three times what parsing the
   * tree took, since a reload parses it again (10k sites take seconds, not milliseconds).
   */
  private proveWindow(testMs: number): number {
    return this.options.proveTimeoutMs + 3 * testMs;
  }

  /** The cache directory of the live config: the data directory's unless /config/res moved it. */
  get cacheDir(): string {
    return this.liveCacheDir ?? this.options.paths.cacheDir;
  }

  apply(snapshot: EdgeSnapshot): Promise<ApplyOutcome> {
    return this.serialize(() => this.applyNow(snapshot));
  }

  /** Starts (or re-proves) nginx with the last proven config; null when there is none yet. */
  restoreLastProven(): Promise<ProvenConfig | null> {
    return this.serialize(() => this.restoreNow());
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async applyNow(snapshot: EdgeSnapshot): Promise<ApplyOutcome> {
    const { log } = this.options;
    const started = performance.now();
    const exclude = { sites: new Set<number>(), streams: new Set<number>(), certs: new Set<number>() };
    const skipped: ApplyError[] = [];
    let notice = '';
    const before = await this.store.proven();
    const outcome = (
      applied: boolean,
      tree: RenderedTree | null,
      error: string,
      live: number | null,
    ): ApplyOutcome => ({
      applied,
      version: typeof snapshot?.version === 'number' ? snapshot.version : -1,
      liveVersion: live,
      errors: [...skipped, ...(tree?.errors ?? [])],
      error,
      ...(notice !== '' && { notice }),
    });

    const digest = this.digest(snapshot);
    if (before?.digest === digest && (await this.stillLive(before))) {
      // Only the version or the jobs changed: nothing to reload.
      await this.store.markProven({ ...before, version: snapshot.version });
      skipped.push(...(before.errors ?? []));
      return outcome(true, null, '', snapshot.version);
    }

    // What the workers serve is known again only once this apply is proven (a failure may leave any).
    const liveRoutes = this.liveRoutes;
    this.liveRoutes = null;
    const origins = await resolveOrigins(snapshot, this.options.lookup);
    for (const unresolved of origins.errors) {
      this.exclude(exclude, unresolved);
      skipped.push(unresolved);
    }

    const challengeSecret = await readOrCreateKey(this.options.paths.challengeKeyFile);
    await ensureTicketKeys(ticketKeyFiles(this.options.paths.dataDir));
    let renderStarted = started;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      let tree: RenderedTree;
      const applyId = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
      const gen = `v${snapshot?.version}-${applyId}`;
      try {
        renderStarted = performance.now();
        tree = renderTree(snapshot, {
          ...this.options.render,
          paths: { ...this.renderPaths(), geoip: this.geoip(snapshot) },
          applyId,
          // nginx reads the tree through the `current` link: nginx.conf is then the same bytes for
          // trees whose routing data alone differs, and that data can be swapped in without a reload.
          treeDir: this.options.paths.currentLink,
          challengeSecret,
          resolved: origins.addresses,
          exclude,
        });
      } catch (error) {
        return outcome(false, null, `snapshot rejected: ${errorText(error)}`, before?.version ?? null);
      }
      const rendered = performance.now();
      await this.store.write(gen, tree);
      const written = performance.now();
      const shape = shapeOf(tree);

      // A running nginx parses the new tree when it reloads and keeps serving the old one when it
      // refuses it, so `nginx -t` (a second parse of every site) runs before a start only, and after
      // a refused reload to find what to leave out.
      const running = (await this.options.nginx.pid()) !== null;
      let testMs = before?.testMs ?? 0;
      const refusal = async (): Promise<string | null> => {
        const testStarted = performance.now();
        const test = await this.options.nginx.test(this.store.confPath(gen));
        testMs = Math.round(performance.now() - testStarted);
        return test.ok ? null : test.output;
      };
      const rejected = async (output: string) => {
        await this.store.prune([before?.gen, before?.previous]);
        // A database nginx cannot open must not keep the rest of the config from going live.
        const geoip = snapshot?.geoip;
        if (geoip && !this.geoipRefused.has(geoip.sha256) && /MMDB_open|geoip2/.test(output)) {
          this.geoipRefused.add(geoip.sha256);
          notice = `geoip: nginx refused the database ${geoip.sha256}; serving without country lookups`;
          log.warn('nginx refused the GeoIP database; leaving it out', { sha256: geoip.sha256 });
          return true;
        }
        const culprit = attributeTestFailure(output);
        if (culprit && this.exclude(exclude, culprit)) {
          log.warn('nginx rejected part of the config; leaving it out', { ...culprit });
          skipped.push(culprit);
          return true;
        }
        return false;
      };
      if (!running) {
        // The tree is read through `current`, so the test reads this one only once it is linked.
        await this.store.activate(gen);
        const output = await refusal();
        if (output !== null) {
          await this.relink(before);
          if (await rejected(output)) continue;
          return outcome(false, tree, `nginx -t failed: ${firstFatal(output)}`, before?.version ?? null);
        }
      }

      const index = indexRoutes(tree.routes);
      const swapped =
        running &&
        before !== null &&
        before.shape === shape &&
        (await this.swap(gen, tree, delta(liveRoutes, before, tree, index), challengeSecret, this.proveWindow(testMs)));
      const liveStarted = performance.now();
      const live = swapped ? { ok: true, output: '' } : await this.goLive(gen, tree.token, this.proveWindow(testMs));
      // A reload parses the tree as a test does: its time stands for the next window.
      if (running && live.ok && !swapped) testMs = Math.round(performance.now() - liveStarted);
      if (!live.ok && running) {
        const output = await refusal();
        if (output !== null) {
          await this.rollBack(before, this.proveWindow(before?.testMs ?? testMs));
          if (await rejected(output)) continue;
          return outcome(false, tree, `nginx -t failed: ${firstFatal(output)}`, before?.version ?? null);
        }
      }
      if (live.ok) {
        for (const id of await refusedSites(this.options.render.controlPort)) {
          skipped.push({ kind: 'site', id, error: 'the edge refused the route of this site (malformed)' });
        }
        for (const id of await refusedSites(this.options.render.controlPort, 'unprotected')) {
          const error =
            'protection: a condition does not compile on the edge (a regular expression?); served without it';
          skipped.push({ kind: 'site', id, error });
        }
        const proven: ProvenConfig = {
          gen,
          version: tree.version,
          token: tree.token,
          digest,
          shape,
          testMs,
          cacheDir: tree.cacheDir,
        };
        proven.errors = [...skipped, ...tree.errors];
        if (before) proven.previous = before.gen;
        await this.store.markProven(proven);
        this.liveCacheDir = tree.cacheDir;
        this.liveRoutes = index;
        await this.store.prune([gen, before?.gen]);
        log.info('config live', {
          version: tree.version,
          sites: tree.sites.length,
          streams: tree.streams.length,
          how: swapped ? 'routing data swapped in' : 'nginx reloaded',
          prepare_ms: Math.round(renderStarted - started),
          render_ms: Math.round(rendered - renderStarted),
          write_ms: Math.round(written - rendered),
          live_ms: Math.round(performance.now() - written),
        });
        return outcome(true, tree, '', tree.version);
      }

      const restored = await this.rollBack(before, this.proveWindow(before?.testMs ?? testMs));
      await this.store.prune([before?.gen, before?.previous]);
      const culprit = this.streamOnFailedPort(snapshot, tree, live.output);
      if (culprit && this.exclude(exclude, culprit)) {
        log.warn('a stream port could not be bound; leaving the stream out', { ...culprit });
        skipped.push(culprit);
        continue;
      }
      const why = live.output.trim() === '' ? 'the version probe never answered it' : firstFatal(live.output);
      const back = restored ? `rolled back to version ${before?.version}` : 'no earlier proven config to roll back to';
      log.error('config did not go live', { version: tree.version, why, back });
      return outcome(
        false,
        tree,
        `config version ${tree.version} did not go live (${why}); ${back}`,
        restored ? (before?.version ?? null) : null,
      );
    }
    return outcome(false, null, 'too many parts of the config were rejected', before?.version ?? null);
  }

  private async restoreNow(): Promise<ProvenConfig | null> {
    this.liveRoutes = null;
    const proven = await this.store.proven();
    if (!proven) return null;
    this.liveCacheDir = proven.cacheDir ?? null;
    const { nginx, render } = this.options;
    if ((await this.store.currentGen()) !== proven.gen) await this.store.activate(proven.gen);
    const pid = await nginx.pid();
    if (pid !== null && (await proveLive(render.controlPort, proven.token, 300))) return proven;
    if (pid === null) {
      // The proven tree names the ticket key files: a wiped tls directory must not keep nginx down.
      await ensureTicketKeys(ticketKeyFiles(this.options.paths.dataDir));
      const started = await nginx.start(this.store.liveConfPath);
      if (!started.ok)
        throw new Error(`nginx did not start with the last proven config: ${firstFatal(started.output)}`);
    } else await nginx.reload();
    if (!(await proveLive(render.controlPort, proven.token, this.proveWindow(proven.testMs ?? 0)))) {
      throw new Error(`the last proven config (version ${proven.version}) did not come up`);
    }
    return proven;
  }

  private async goLive(gen: string, token: string, window: number): Promise<{ ok: boolean; output: string }> {
    const { nginx, paths, render } = this.options;
    await this.store.activate(gen);
    const offset = await fileSize(paths.errorLog);
    const oldWorkers = await nginx.workers();
    if ((await nginx.pid()) === null) {
      const started = await nginx.start(this.store.liveConfPath);
      if (!started.ok) return { ok: false, output: started.output };
    } else {
      await nginx.reload();
    }
    let logged = '';
    const refused = async () => {
      logged = await readFrom(paths.errorLog, offset);
      return reloadRefused(logged);
    };
    const ok = await proveLive(render.controlPort, token, window, refused);
    if (ok && !(await nginx.waitRetired(oldWorkers, window))) {
      this.options.log.warn('old nginx workers still accept connections after the reload');
    }
    return { ok, output: ok ? '' : logged || (await readFrom(paths.errorLog, offset)) };
  }

  /**
   * Routing data alone changed (every other file of the tree is the same): `current` points at the
   * new tree, and its routes.json, after a first line with the delta from the data before, is posted
   * to the control server; the workers take it without a reload. False (the live tree linked again)
   * when the control server refuses or the workers do not all serve it within the window: the caller
   * reloads instead.
   */
  private async swap(
    gen: string,
    tree: RenderedTree,
    delta: RoutesDelta | null,
    secret: string,
    window: number,
  ): Promise<boolean> {
    const { render, log } = this.options;
    const { token } = tree;
    const routes = tree.files.find((file) => file.path === 'routes.json');
    if (!routes) return false;
    const before = await this.store.currentGen();
    await this.store.activate(gen);
    const path = `/swap?token=${encodeURIComponent(token)}`;
    const answer = await localRequest({
      port: render.controlPort,
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', [SWAP_KEY_HEADER]: swapKey(secret) },
      body: `${delta ? JSON.stringify(delta) : ''}\n${routes.content}`,
      timeoutMs: 5000,
    });
    if (answer?.status === 200 && (await proveLive(render.controlPort, token, window, undefined, 1))) return true;
    log.warn('the routing data could not be swapped in; reloading nginx instead', { status: answer?.status ?? null });
    if (before) await this.store.activate(before);
    return false;
  }

  /** Points `current` back at the proven tree after a tree that was never live (none: no link). */
  private async relink(before: ProvenConfig | null): Promise<void> {
    if (before) await this.store.activate(before.gen);
    else await this.store.deactivate();
  }

  private async rollBack(before: ProvenConfig | null, window: number): Promise<boolean> {
    const { nginx, render, log } = this.options;
    if (!before) {
      await this.store.deactivate();
      await nginx.stop();
      return false;
    }
    await this.store.activate(before.gen);
    const oldWorkers = await nginx.workers();
    if ((await nginx.pid()) === null) await nginx.start(this.store.liveConfPath);
    else await nginx.reload();
    const ok = await proveLive(render.controlPort, before.token, window);
    if (ok) await nginx.waitRetired(oldWorkers, window);
    if (!ok) log.error('the rolled back config did not prove live', { version: before.version });
    return ok;
  }

  private digest(snapshot: EdgeSnapshot): string {
    const { render, modulesDir, paths } = this.options;
    const geoip = this.geoip(snapshot);
    const content = JSON.stringify({
      snapshot: { ...snapshot, version: 0, jobs: [] },
      render,
      modulesDir,
      paths,
      geoip,
    });
    return createHash('sha256').update(content).digest('hex');
  }

  /** The snapshot's GeoIP database when this node holds it (and has the module), else null. */
  private geoip(snapshot: EdgeSnapshot) {
    if (snapshot?.geoip && this.geoipRefused.has(snapshot.geoip.sha256)) return null;
    return geoipForRender(this.options.paths.dataDir, this.options.modulesDir, snapshot?.geoip);
  }

  private async stillLive(proven: ProvenConfig): Promise<boolean> {
    if ((await this.options.nginx.pid()) === null || (await this.store.currentGen()) !== proven.gen) return false;
    return proveLive(this.options.render.controlPort, proven.token, 500);
  }

  private streamOnFailedPort(snapshot: EdgeSnapshot, tree: RenderedTree, output: string): ApplyError | null {
    const ports = failedBindPorts(output);
    for (const stream of snapshot.streams ?? []) {
      if (tree.streams.includes(stream.id) && ports.includes(stream.listen_port)) {
        return { kind: 'stream', id: stream.id, error: `port ${stream.listen_port} could not be bound (in use?)` };
      }
    }
    return null;
  }

  private exclude(
    sets: { sites: Set<number>; streams: Set<number>; certs: Set<number> },
    culprit: ApplyError,
  ): boolean {
    const set = culprit.kind === 'site' ? sets.sites : culprit.kind === 'stream' ? sets.streams : sets.certs;
    if (set.has(culprit.id)) return false;
    set.add(culprit.id);
    return true;
  }

  /** Looked up at each render: nginx may have been upgraded under the module since the last. */
  private fastPathModule(): string | null {
    if (this.options.fastPathModule !== undefined) return this.options.fastPathModule;
    return findFastPathModule(this.options.nginx.options.binary);
  }

  private renderPaths(): RenderOptions['paths'] {
    const { paths, modulesDir } = this.options;
    return {
      pidFile: paths.pidFile,
      errorLog: paths.errorLog,
      accessLog: paths.accessLog,
      streamLog: paths.streamLog,
      tempDir: paths.tempDir,
      cacheDir: paths.cacheDir,
      modulesDir,
      luaDir: LUA_DIR,
      fastPathModule: this.fastPathModule(),
      crs: this.options.crs === undefined ? findCrs(modulesDir) : this.options.crs,
      wafAuditLog: paths.wafAuditLog,
      ticketKeys: ticketKeyFiles(paths.dataDir),
    };
  }
}

/** Proves to the control server's /swap that the agent sent it (any local user reaches that port). */
const SWAP_KEY_HEADER = 'x-rampart-swap-key';

/** The key /swap expects: an HMAC of a fixed text with the node's secret, which routes.json carries. */
export function swapKey(secret: string): string {
  return createHmac('sha1', secret).update('rampart routing swap').digest('base64');
}

/** The delta from the routing data the workers serve (when this agent put it there) to `tree`'s. */
function delta(live: RoutesIndex | null, before: ProvenConfig, tree: RenderedTree, index: RoutesIndex) {
  return live && live.token === before.token ? routesDelta(live, tree.routes, index) : null;
}

/**
 * Whether nginx has logged that it refused a reload and is done trying: one [emerg], except for
 * busy ports, which nginx retries for a few seconds until it logs "still could not bind()".
 * Signalling it again before then would queue another reload behind the failing one.
 */
export function reloadRefused(log: string): boolean {
  if (!/\[emerg\]/.test(log)) return false;
  return !/bind\(\) to .* failed/.test(log) || /still could not bind\(\)/.test(log);
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

async function readFrom(path: string, offset: number): Promise<string> {
  try {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(Math.max(size - offset, 0), 64 * 1024);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, offset);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}
