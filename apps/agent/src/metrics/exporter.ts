import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localRequest } from '../local-http.ts';
import { errorText, type Logger } from '../logger.ts';

/** One metric family of the Prometheus text format (version 0.0.4). */
export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples: { labels?: Record<string, string>; value: number }[];
}

const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const formatValue = (value: number) =>
  Number.isNaN(value)
    ? 'NaN'
    : value === Number.POSITIVE_INFINITY
      ? '+Inf'
      : value === -Infinity
        ? '-Inf'
        : String(value);

/** The exposition text of `families`: HELP and TYPE, then one line a sample. */
export function renderExposition(families: readonly Family[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels ?? {});
      const text = labels.length ? `{${labels.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(',')}}` : '';
      lines.push(`${family.name}${text} ${formatValue(sample.value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** nginx's stub_status page: connections and requests since the master process started. */
export interface StubStatus {
  active: number;
  accepted: number;
  handled: number;
  requests: number;
  reading: number;
  writing: number;
  waiting: number;
}

export function parseStubStatus(text: string): StubStatus | null {
  const match =
    /Active connections:\s*(\d+)\s+server accepts handled requests\s+(\d+)\s+(\d+)\s+(\d+)\s+Reading:\s*(\d+)\s+Writing:\s*(\d+)\s+Waiting:\s*(\d+)/.exec(
      text,
    );
  if (!match) return null;
  const [active, accepted, handled, requests, reading, writing, waiting] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { active, accepted, handled, requests, reading, writing, waiting };
}

/** What the agent counts as it works; read at each scrape. */
export class AgentCounters {
  shippedBatches = 0;
  shippedLines = { access: 0, stream: 0 };
  reports = { sent: 0, failed: 0 };

  shipped(batch: { access: readonly unknown[]; stream: readonly unknown[] }): void {
    this.shippedBatches++;
    this.shippedLines.access += batch.access.length;
    this.shippedLines.stream += batch.stream.length;
  }

  reported(sent: boolean): void {
    if (sent) this.reports.sent++;
    else this.reports.failed++;
  }
}

/** What the scrape reads from the rest of the agent at the moment it is made. */
export interface AgentSources {
  counters: AgentCounters;
  /** The config version nginx serves (the last proven one), or null before the first. */
  appliedVersion: () => Promise<number | null>;
  droppedLines: () => number;
  spool: () => { batches: number; bytes: number };
  /** nginx's control server, where stub_status answers at /status. */
  controlPort: number;
}

/** Every figure of the agent and of its nginx, as families. */
export async function agentFamilies(sources: AgentSources): Promise<Family[]> {
  const { counters } = sources;
  const version = await sources.appliedVersion();
  const spool = sources.spool();
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const answer = await localRequest({ port: sources.controlPort, path: '/status', timeoutMs: 1000 });
  const stub = answer?.status === 200 ? parseStubStatus(answer.body) : null;
  const families: Family[] = [
    {
      name: 'rampart_agent_config_version_applied',
      help: 'The config version nginx serves (the last one proven live); -1 before the first.',
      type: 'gauge',
      samples: [{ value: version ?? -1 }],
    },
    {
      name: 'rampart_agent_log_lines_shipped_total',
      help: 'Log lines the master acknowledged, by kind (access, stream).',
      type: 'counter',
      samples: [
        { labels: { kind: 'access' }, value: counters.shippedLines.access },
        { labels: { kind: 'stream' }, value: counters.shippedLines.stream },
      ],
    },
    {
      name: 'rampart_agent_log_batches_shipped_total',
      help: 'Log batches the master acknowledged.',
      type: 'counter',
      samples: [{ value: counters.shippedBatches }],
    },
    {
      name: 'rampart_agent_log_lines_dropped_total',
      help: 'Log lines dropped because the spool was full.',
      type: 'counter',
      samples: [{ value: sources.droppedLines() }],
    },
    {
      name: 'rampart_agent_spool_batches',
      help: 'Log batches waiting in the spool for the master.',
      type: 'gauge',
      samples: [{ value: spool.batches }],
    },
    {
      name: 'rampart_agent_spool_bytes',
      help: 'Bytes of log batches waiting in the spool.',
      type: 'gauge',
      samples: [{ value: spool.bytes }],
    },
    {
      name: 'rampart_agent_metric_reports_total',
      help: 'Metric reports sent to the master, by result (sent, failed).',
      type: 'counter',
      samples: [
        { labels: { result: 'sent' }, value: counters.reports.sent },
        { labels: { result: 'failed' }, value: counters.reports.failed },
      ],
    },
    {
      name: 'process_cpu_seconds_total',
      help: 'CPU time of the agent process (user and system), in seconds.',
      type: 'counter',
      samples: [{ value: (cpu.user + cpu.system) / 1e6 }],
    },
    {
      name: 'process_resident_memory_bytes',
      help: 'Resident memory of the agent process.',
      type: 'gauge',
      samples: [{ value: memory.rss }],
    },
    {
      name: 'process_start_time_seconds',
      help: 'When the agent process started, seconds since the epoch.',
      type: 'gauge',
      samples: [{ value: Math.round(Date.now() / 1000 - process.uptime()) }],
    },
    {
      name: 'nginx_up',
      help: "Whether nginx's stub_status answered (1) or not (0).",
      type: 'gauge',
      samples: [{ value: stub ? 1 : 0 }],
    },
  ];
  if (stub) {
    const gauge = (name: string, help: string, value: number): Family => ({
      name,
      help,
      type: 'gauge',
      samples: [{ value }],
    });
    const counter = (name: string, help: string, value: number): Family => ({
      name,
      help,
      type: 'counter',
      samples: [{ value }],
    });
    families.push(
      gauge('nginx_connections_active', 'Client connections open now, waiting ones included.', stub.active),
      gauge('nginx_connections_reading', 'Connections where nginx reads the request header.', stub.reading),
      gauge('nginx_connections_writing', 'Connections where nginx writes the response.', stub.writing),
      gauge('nginx_connections_waiting', 'Idle keep-alive connections.', stub.waiting),
      counter('nginx_connections_accepted', 'Client connections accepted.', stub.accepted),
      counter('nginx_connections_handled', 'Client connections handled.', stub.handled),
      counter('nginx_http_requests_total', 'Client requests.', stub.requests),
    );
  }
  return families;
}

/**
 * `GET /metrics` on 127.0.0.1:`port` (0: any free port) for a Prometheus on the node or an SSH
 * tunnel; nothing else answers. Off unless the agent is started with --metrics-port.
 */
export async function startMetricsServer(options: {
  port: number;
  sources: AgentSources;
  log: Logger;
}): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('only GET /metrics answers here\n');
      return;
    }
    agentFamilies(options.sources).then(
      (families) => {
        response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
        response.end(request.method === 'HEAD' ? undefined : renderExposition(families));
      },
      (error: unknown) => {
        options.log.warn('metrics scrape failed', { error: errorText(error) });
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
