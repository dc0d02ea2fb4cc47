import { AgentProbePlan, type AgentProbeReport } from '@rampart/contracts';
import { type ProbeResult, probeIp } from '@rampart/contracts/health-probe';
import { errorText, type Logger } from '../logger.ts';
import { pause } from '../sync/backoff.ts';
import type { MasterClient } from '../sync/master-client.ts';

export interface HealthProberOptions {
  client: MasterClient;
  /** The node's credential headers. */
  auth: Record<string, string>;
  log: Logger;
}

/**
 * The plan is asked for again at least this often; a settings change reaches the node sooner, with
 * the config it long-polls (refresh()).
 */
const PLAN_MAX_AGE_MS = 60_000;
/** How long to wait when the nodes do not vote or the master cannot be reached. */
const IDLE_MS = 10_000;
const PARALLEL_PROBES = 32;

/**
 * Probes the other nodes' IPs as the master's plan says (GET /agent/v1/health/targets) and reports
 * each round (POST /agent/v1/health/probes): the master counts these votes, so one master with a
 * broken uplink cannot take IPs out of DNS on its own.
 */
export class HealthProber {
  private readonly options: HealthProberOptions;
  private plan: AgentProbePlan | null = null;
  private planAt = 0;
  private wake: () => void = () => {};
  /** Set by refresh(): a plan read meanwhile may predate the change, so it is read again at once. */
  private refreshed = false;

  constructor(options: HealthProberOptions) {
    this.options = options;
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const started = Date.now();
      let waitMs = IDLE_MS;
      this.refreshed = false;
      try {
        const plan = await this.currentPlan(signal);
        if (plan.enabled && plan.targets.length > 0) {
          await this.round(plan, signal);
          waitMs = plan.interval_seconds * 1000 - (Date.now() - started);
        }
      } catch (error) {
        if (signal.aborted) return;
        this.options.log.warn('node health probes failed', { error: errorText(error) });
      }
      if (this.refreshed) {
        this.plan = null;
        continue;
      }
      await this.waitOrRefresh(Math.max(0, waitMs), signal);
    }
  }

  /**
   * Reads the plan again and starts the next round now: called when the master sends a new config
   * (the monitor settings, the nodes or their IPs may have changed).
   */
  refresh(): void {
    this.refreshed = true;
    this.plan = null;
    this.wake();
  }

  private waitOrRefresh(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const controller = new AbortController();
      const done = () => controller.abort();
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
      void pause(ms, controller.signal).then(() => {
        signal.removeEventListener('abort', done);
        this.wake = () => {};
        resolve();
      });
    });
  }

  /** One round: every target probed, the results sent. */
  async round(plan: AgentProbePlan, signal: AbortSignal): Promise<AgentProbeReport> {
    const results = new Array<ProbeResult & { ip: string }>(plan.targets.length);
    let next = 0;
    const worker = async () => {
      while (next < plan.targets.length) {
        const index = next++;
        const target = plan.targets[index];
        if (!target) continue;
        const result = await probeIp(target.ip, target.port, plan, signal).catch(
          (error: unknown): ProbeResult => ({ ok: false, detail: errorText(error) }),
        );
        results[index] = { ip: target.ip, ok: result.ok, detail: result.detail.slice(0, 200) };
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PROBES, plan.targets.length) }, worker));
    const report: AgentProbeReport = { results: results.filter((result) => result !== undefined) };
    if (signal.aborted) return report;
    await this.options.client.call(
      { method: 'POST', path: '/agent/v1/health/probes', headers: this.options.auth, body: report, signal },
      null,
    );
    return report;
  }

  private async currentPlan(signal: AbortSignal): Promise<AgentProbePlan> {
    if (this.plan && Date.now() - this.planAt < PLAN_MAX_AGE_MS) return this.plan;
    this.plan = await this.options.client.call<AgentProbePlan>(
      { method: 'GET', path: '/agent/v1/health/targets', headers: this.options.auth, signal },
      AgentProbePlan,
    );
    this.planAt = Date.now();
    return this.plan;
  }
}
