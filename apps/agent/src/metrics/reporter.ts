import type { NodeMetricsBody } from '@rampart/contracts';
import { localRequest } from '../local-http.ts';
import { errorText, type Logger } from '../logger.ts';
import { pause } from '../sync/backoff.ts';
import { MasterError } from '../sync/master-client.ts';
import {
  type CpuTimes,
  cpuPercent,
  diskUsage,
  parseActiveConnections,
  parseCpuTimes,
  parseLoad,
  parseMemory,
  readProc,
} from './proc.ts';
import type { SiteCounters } from './site-counters.ts';

export interface MetricsOptions {
  counters: SiteCounters;
  controlPort: number;
  intervalMs: number;
  /** Disk use is reported for the file system holding this directory (the agent's data and cache). */
  diskPath: string;
  send: (body: NodeMetricsBody, signal: AbortSignal) => Promise<unknown>;
  log: Logger;
}

/** Every interval: CPU, memory, disk, load, connections, bandwidth and requests of the node, and the per-site minutes. */
export class MetricsReporter {
  private readonly options: MetricsOptions;
  private lastCpu: CpuTimes | null = null;

  constructor(options: MetricsOptions) {
    this.options = options;
  }

  async run(signal: AbortSignal): Promise<void> {
    this.lastCpu = parseCpuTimes(await readProc('stat'));
    while (!signal.aborted) {
      await pause(this.options.intervalMs, signal);
      if (signal.aborted) return;
      await this.report(signal);
    }
  }

  async collect(): Promise<{ body: NodeMetricsBody; taken: ReturnType<SiteCounters['take']> }> {
    const cpu = parseCpuTimes(await readProc('stat'));
    const memory = parseMemory(await readProc('meminfo'));
    const stub = await localRequest({ port: this.options.controlPort, path: '/status', timeoutMs: 1000 });
    const load = parseLoad(await readProc('loadavg'));
    const disk = await diskUsage(this.options.diskPath);
    const taken = this.options.counters.take();
    const body: NodeMetricsBody = {
      time: Math.floor(Date.now() / 1000),
      cpu_percent: cpuPercent(this.lastCpu, cpu),
      memory_used_bytes: memory.used,
      memory_total_bytes: memory.total,
      load1: load.load1,
      load5: load.load5,
      load15: load.load15,
      connections: stub?.status === 200 ? parseActiveConnections(stub.body) : 0,
      bytes_in: taken.bytesIn,
      bytes_out: taken.bytesOut,
      requests: taken.requests,
      nginx_up: stub?.status === 200,
      ...(disk && { disk_used_bytes: disk.used, disk_total_bytes: disk.total }),
      sites: taken.sites,
    };
    this.lastCpu = cpu;
    return { body, taken };
  }

  async report(signal: AbortSignal): Promise<boolean> {
    const { body, taken } = await this.collect();
    try {
      await this.options.send(body, signal);
      return true;
    } catch (error) {
      // Counted traffic goes into the next report, unless the master refused this one for good.
      const refused = error instanceof MasterError && !error.retryable && !error.unauthorized;
      if (!refused) this.options.counters.restore(taken);
      if (!signal.aborted) this.options.log.warn('metrics report failed', { error: errorText(error) });
      return false;
    }
  }
}
