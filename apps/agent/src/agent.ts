import { join } from 'node:path';
import { type EdgeSnapshot, NODE_TOKEN_HEADER, type NodeMetricsBody } from '@rampart/contracts';
import packageJson from '../package.json' with { type: 'json' };
import { Applier } from './apply/applier.ts';
import { Nginx } from './apply/nginx.ts';
import { workerIds, workersAreOtherUser } from './apply/nginx-user.ts';
import { refreshOcsp } from './apply/ocsp.ts';
import { rotateTicketKeysIfDue, ticketKeyFiles } from './apply/ticket-keys.ts';
import { prepareDataDir } from './data-dir.ts';
import { readOrCreateKey } from './fs-atomic.ts';
import { masterGeoipDownload } from './geoip/geoip-store.ts';
import { HealthProber } from './health/prober.ts';
import { errorText, type Logger } from './logger.ts';
import { rotateIfLarge } from './logs/rotate.ts';
import { LogShipper, masterSender } from './logs/shipper.ts';
import { WafAudit } from './logs/waf-audit.ts';
import { AgentCounters, startMetricsServer } from './metrics/exporter.ts';
import { MetricsReporter } from './metrics/reporter.ts';
import { SiteCounters } from './metrics/site-counters.ts';
import type { AgentOptions } from './options.ts';
import { type AgentPaths, agentPaths } from './paths.ts';
import { readOriginHealth } from './render/health-check-report.ts';
import { StateStore } from './state.ts';
import { pause } from './sync/backoff.ts';
import { ConfigSync } from './sync/config-sync.ts';
import { MasterClient } from './sync/master-client.ts';
import { followMasters, savedMasters } from './sync/master-list.ts';
import { ensureRegistered } from './sync/register.ts';
import { CommandRunner } from './upgrade/command-runner.ts';
import { ReleaseInstaller, RUNNING_PREFIX } from './upgrade/release-installer.ts';
import { runSelfTest } from './upgrade/self-test.ts';
import { startOnTrial } from './upgrade/trial.ts';

export const AGENT_VERSION: string = packageJson.version;

/**
 * One edge agent: serves the last proven config at once, then registers (once), follows the
 * master's config, ships logs and reports metrics. Nothing here stops nginx from serving.
 */
export class Agent {
  readonly paths: AgentPaths;
  readonly nginx: Nginx;
  readonly applier: Applier;
  readonly shipper: LogShipper;
  private readonly options: AgentOptions;
  private readonly log: Logger;
  private readonly state: StateStore;
  private readonly client: MasterClient;
  private readonly counters = new SiteCounters();
  /** Lines shipped and reports sent, for the agent's own GET /metrics. */
  readonly figures = new AgentCounters();
  private metricsServer: { port: number; close(): Promise<void> } | null = null;
  /** The config loop once the node is registered: told when nginx had to be brought back. */
  private sync: ConfigSync | null = null;
  private readonly controller = new AbortController();
  private tasks: Promise<unknown>[] = [];
  /** Settles when the agent stops on its own (for example the node was rejected). */
  readonly finished: Promise<void>;
  private finish: () => void = () => {};

  constructor(options: AgentOptions, log: Logger) {
    this.options = options;
    this.log = log;
    this.paths = agentPaths(options.dataDir);
    this.state = new StateStore(this.paths.stateFile);
    this.client = new MasterClient(options.masters, { log });
    this.nginx = new Nginx({
      binary: options.nginxBinary,
      prefix: this.paths.nginxDir,
      errorLog: this.paths.errorLog,
      pidFile: this.paths.pidFile,
    });
    this.applier = new Applier({
      paths: this.paths,
      nginx: this.nginx,
      render: {
        controlPort: options.controlPort,
        listenAddress: options.listenAddress,
        workerProcesses: options.workerProcesses,
        nginxUser: options.nginxUser,
      },
      modulesDir: options.modulesDir,
      proveTimeoutMs: options.proveTimeoutMs,
      log,
    });
    this.shipper = new LogShipper({
      paths: this.paths,
      spoolMaxBytes: options.spoolMaxBytes,
      wafAudit: new WafAudit(this.paths.wafAuditLog, { cursorFile: this.paths.wafAuditCursorFile, log }),
      onLines: (access, stream) => this.counters.add(access, stream),
      onSpoolError: (error) =>
        this.sync?.noteEvent(
          `the log spool could not be written at ${new Date().toISOString()} (${error}); lines wait until it can`,
        ),
      log,
    });
    this.nginx.onOrphansStopped = (count) => {
      const at = new Date().toISOString();
      this.log.warn('stopped nginx processes a dead master left behind', { count });
      this.sync?.noteEvent(
        `nginx's master was gone at ${at}; stopped the ${count} processes it left holding the ports`,
      );
    };
    this.finished = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  async start(): Promise<void> {
    await prepareDataDir(this.paths, workersAreOtherUser() ? workerIds(this.options.nginxUser) : null);
    // A new agent (/sys/op upgrade) that keeps failing before it reaches the master gives way.
    if (await startOnTrial(this.paths.dataDir, new ReleaseInstaller({ prefix: RUNNING_PREFIX }), this.log)) {
      this.finish();
      return;
    }
    const { spool_max_bytes: kept } = await this.state.load();
    // The masters a config named, or the one a transfer (/sys/op) moved this node to, replace --master.
    const saved = await savedMasters(this.paths.dataDir);
    if (saved) this.client.useMasters(saved);
    // The master sends a config again only when it changes: the cap it set last is kept here.
    if (Number.isSafeInteger(kept) && (kept ?? 0) > 0) this.shipper.spool.setMaxBytes(kept ?? 0);
    try {
      const proven = await this.applier.restoreLastProven();
      if (proven) this.log.info('serving the last proven config', { version: proven.version });
    } catch (error) {
      this.log.error('could not bring up the last proven config', { error: errorText(error) });
    }
    await this.shipper.start();
    if (this.options.metricsPort !== undefined) {
      this.metricsServer = await startMetricsServer({
        port: this.options.metricsPort,
        sources: {
          counters: this.figures,
          appliedVersion: async () => (await this.applier.store.proven())?.version ?? null,
          droppedLines: () => this.shipper.droppedLines,
          spool: () => ({ batches: this.shipper.spool.pendingBatches, bytes: this.shipper.spool.usedBytes }),
          controlPort: this.options.controlPort,
        },
        log: this.log,
      });
      this.log.info('metrics listening', { address: `127.0.0.1:${this.metricsServer.port}` });
    }
    const signal = this.controller.signal;
    this.tasks = [this.maintain(signal), this.online(signal)];
  }

  /**
   * Stops the loops, writes what the log tailers read into the spool with its checkpoint, and leaves
   * nginx serving (unless --stop-nginx-on-exit).
   */
  async stop(): Promise<void> {
    this.controller.abort();
    // Waits are cut short by the abort; an apply or a job still running is not waited for long:
    // a restarted agent serves the last proven config and runs unfinished jobs again.
    await settledWithin(this.tasks, STOP_GRACE_MS);
    await this.shipper.stop();
    await this.metricsServer?.close();
    if (this.options.stopNginxOnExit) await this.nginx.stop();
    this.finish();
  }

  private async online(signal: AbortSignal): Promise<void> {
    let identity: Awaited<ReturnType<typeof ensureRegistered>>;
    try {
      identity = await ensureRegistered({
        client: this.client,
        state: this.state,
        installToken: this.options.token,
        agentVersion: AGENT_VERSION,
        pollMs: this.options.registrationPollMs,
        // A node listening on one address is told apart by it (two cloned machines find the same ones).
        ...(specificAddress(this.options.listenAddress) && { ips: [edgeAddress(this.options.listenAddress)] }),
        log: this.log,
        signal,
      });
    } catch (error) {
      if (signal.aborted) return;
      this.log.error('registration failed; the agent stops (nginx keeps serving)', { error: errorText(error) });
      this.finish();
      return;
    }
    if (!identity || signal.aborted) return;
    const auth = { [NODE_TOKEN_HEADER]: identity.credential };
    this.shipper.setSender(masterSender(this.client, auth, (batch) => this.figures.shipped(batch)));
    // Votes on the other nodes' IPs for the master's health checks.
    const health = new HealthProber({ client: this.client, auth, log: this.log });
    const applier = this.applier;
    const sync = new ConfigSync({
      client: this.client,
      credential: identity.credential,
      applier: this.applier,
      state: this.state,
      waitSeconds: this.options.pollWaitSeconds,
      jobContext: {
        controlPort: this.options.controlPort,
        // Read at each job: /config/res may move the cache with a config.
        get cacheDir() {
          return applier.cacheDir;
        },
        edgeAddress: edgeAddress(this.options.listenAddress),
      },
      droppedLogLines: () => this.shipper.droppedLines,
      originHealth: () => readOriginHealth(this.options.controlPort),
      geoip: { dataDir: this.paths.dataDir, download: masterGeoipDownload(() => this.client.baseUrl, auth) },
      onApplied: (snapshot) => {
        this.followSpoolCap(snapshot);
        health.refresh();
      },
      followMasters: (masters) => followMasters(this.client, this.paths.dataDir, masters, this.log),
      log: this.log,
    });
    this.sync = sync;
    const metrics = new MetricsReporter({
      counters: this.counters,
      controlPort: this.options.controlPort,
      intervalMs: this.options.metricsIntervalMs,
      diskPath: this.options.dataDir,
      send: async (body: NodeMetricsBody, metricsSignal) => {
        try {
          const answer = await this.client.call(
            { method: 'POST', path: '/agent/v1/metrics', headers: auth, body, signal: metricsSignal },
            null,
          );
          this.figures.reported(true);
          return answer;
        } catch (error) {
          this.figures.reported(false);
          throw error;
        }
      },
      log: this.log,
    });
    // Self-tests, upgrades and a new master address from /sys/op; an upgrade restarts into the new agent.
    const commands = new CommandRunner({
      client: this.client,
      credential: identity.credential,
      dataDir: this.paths.dataDir,
      installer: new ReleaseInstaller({ prefix: RUNNING_PREFIX }),
      selfTest: () =>
        runSelfTest({
          nginx: this.nginx,
          store: this.applier.store,
          dataDir: this.paths.dataDir,
          agentVersion: AGENT_VERSION,
        }),
      onUpgraded: (version) => {
        this.log.info('restarting into the new agent', { version });
        this.finish();
      },
      log: this.log,
    });
    await Promise.all([
      sync.run(signal),
      metrics.run(signal),
      this.heartbeat(sync, signal),
      health.run(signal),
      commands.run(signal),
    ]);
  }

  /**
   * /config/res `log_spool_mb` of a live snapshot caps the log spool from its next batch, without
   * restarting the shipper; a snapshot without edge settings leaves the --spool-max-mb option.
   */
  private followSpoolCap(snapshot: EdgeSnapshot): void {
    const mb = snapshot.edge_settings?.res.log_spool_mb;
    const bytes = mb === undefined ? this.options.spoolMaxBytes : mb * 1024 * 1024;
    if (bytes === this.shipper.spool.maxBytes) return;
    this.shipper.spool.setMaxBytes(bytes);
    this.log.info('log spool cap changed', { max_bytes: bytes, used_bytes: this.shipper.spool.usedBytes });
    this.state
      .update((state) => {
        state.spool_max_bytes = bytes;
      })
      .catch((error: unknown) => this.log.warn('could not keep the log spool cap', { error: errorText(error) }));
  }

  /** Status every interval, so dropped log lines and a refused credential show up without a config change. */
  private async heartbeat(sync: ConfigSync, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await pause(this.options.statusIntervalMs, signal);
      if (signal.aborted) return;
      await sync.reportStatus(signal);
      await sync.flushJobResults(signal);
    }
  }

  /**
   * Every second: bring nginx back with the last proven config if its master died (stopping the
   * workers it left, which hold the ports), then try the newest config again; every 30 s: rotate
   * logs that grew too large.
   */
  private async maintain(signal: AbortSignal): Promise<void> {
    for (let tick = 1; !signal.aborted; tick++) {
      await pause(WATCH_MS, signal);
      if (signal.aborted) return;
      try {
        if ((await this.nginx.pid()) === null && (await this.applier.store.proven())) await this.reviveNginx();
        if (tick % ROTATE_TICKS === 0) await this.rotateLogs();
        if (tick % TICKET_TICKS === 0) await this.rotateTicketKeys();
        if (tick % OCSP_TICKS === OCSP_FIRST_TICK) await this.stapleOcsp();
      } catch (error) {
        this.log.warn('maintenance failed', { error: errorText(error) });
      }
    }
  }

  private async reviveNginx(): Promise<void> {
    const at = new Date().toISOString();
    this.log.warn('nginx is not running; starting it with the last proven config');
    try {
      const proven = await this.applier.restoreLastProven();
      this.sync?.noteEvent(`nginx was not running at ${at}; restarted with config version ${proven?.version ?? '?'}`);
    } catch (error) {
      this.sync?.noteEvent(`nginx was not running at ${at}; restarting it failed: ${errorText(error)}`);
      throw error;
    } finally {
      this.sync?.retryNow();
      void this.sync?.reportStatus(this.controller.signal);
    }
  }

  /** Session ticket keys older than 12 hours: the current one becomes the previous one, nginx reloads. */
  private async rotateTicketKeys(): Promise<void> {
    const reload = async () => {
      if ((await this.nginx.pid()) !== null) await this.nginx.reload();
    };
    if (await rotateTicketKeysIfDue(ticketKeyFiles(this.paths.dataDir), { reload })) {
      this.log.info('session ticket keys rotated');
    }
  }

  /** OCSP responses of the live certificates that name a responder, for nginx to staple. */
  private async stapleOcsp(): Promise<void> {
    const stapled = await refreshOcsp({
      routesFile: join(this.paths.currentLink, 'routes.json'),
      controlPort: this.options.controlPort,
      secret: await readOrCreateKey(this.paths.challengeKeyFile),
      log: this.log,
    });
    if (stapled > 0) this.log.info('OCSP responses refreshed', { certificates: stapled });
  }

  private async rotateLogs(): Promise<void> {
    const positions = this.shipper.positions();
    const reopen = () => this.nginx.reopenLogs();
    const max = this.options.logRotateBytes;
    await rotateIfLarge(this.paths.accessLog, max, positions.access?.ino ?? null, reopen);
    await rotateIfLarge(this.paths.streamLog, max, positions.stream?.ino ?? null, reopen);
    await rotateIfLarge(this.paths.errorLog, max, null, reopen);
  }
}

/** How often the agent checks that its nginx master runs. */
const WATCH_MS = 1000;
/** Log rotation every 30 checks. */
const ROTATE_TICKS = 30;
/** Ticket key age checked every 10 minutes. */
const TICKET_TICKS = 600;
/** OCSP responses fetched every hour, the first time a minute after start. */
const OCSP_TICKS = 3600;
const OCSP_FIRST_TICK = 60;

/** How long a stop waits for an apply or a job in progress. */
const STOP_GRACE_MS = 1500;

/** Resolves when all `tasks` have settled or after `ms`, whichever comes first. */
async function settledWithin(tasks: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(tasks), late]);
  clearTimeout(timer);
}

/** Whether the edge listens on one address rather than all of them. */
function specificAddress(listenAddress: string): boolean {
  return !['', '0.0.0.0', '[::]', '::'].includes(listenAddress);
}

/** Where jobs reach this node's own edge. */
function edgeAddress(listenAddress: string): string {
  if (listenAddress === '' || listenAddress === '0.0.0.0') return '127.0.0.1';
  return listenAddress.replace(/^\[(.*)\]$/, '$1');
}
