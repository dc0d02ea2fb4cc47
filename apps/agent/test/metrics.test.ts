import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExposition, type Sample, sampleValue } from '../../master/src/modules/metrics/exposition-parser.ts';
import { agentCommandLine, agentNginx } from './support/agent.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { acceptFirstPendingNode, adminToken, api, MasterProcess, terminate } from './support/master-process.ts';
import { freePort } from './support/ports.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');

/** Scrapes `url` and parses the text format strictly. */
async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text()).samples;
}

/** The master process, an agent process with --metrics-port, and Debian's nginx: both /metrics scraped. */
describe('Prometheus /metrics on the agent and the master', () => {
  let master: MasterProcess;
  let agent: ChildProcess | null = null;
  let agentDir = '';
  let metricsPort = 0;
  const edgePort = { http: 0 };

  const agentMetrics = () => scrape(`http://127.0.0.1:${metricsPort}/metrics`);
  const masterMetrics = () => scrape(`${master.url}/metrics`);

  beforeAll(async () => {
    master = new MasterProcess(await freePort(), await mkdtemp(join(tmpdir(), 'rampart-metrics-master-')));
    await master.start();
    const admin = await adminToken(master);
    agentDir = await mkdtemp(join(tmpdir(), 'rampart-metrics-agent-'));
    metricsPort = await freePort();
    edgePort.http = await freePort();
    const { install_token } = await api<{ install_token: string }>(master, 'GET', '/v1/nodes/install-token', admin);
    const args = [
      ...agentCommandLine({
        master: master.url,
        token: install_token,
        dataDir: agentDir,
        controlPort: await freePort(),
        fast: true,
      }),
      '--metrics-port',
      String(metricsPort),
    ];
    agent = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    agent.stderr?.resume();
    await acceptFirstPendingNode(master, admin, { http_port: edgePort.http, https_port: await freePort() });
  });

  afterAll(async () => {
    if (agent && agent.exitCode === null) await terminate(agent, 5000);
    if (agentDir) {
      await agentNginx(agentDir).stop(2000);
    }
    await master?.stop();
    for (const dir of [agentDir, master?.dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the agent reports the version it applied, the same the master serves and shows for the node', async () => {
    await eventually(async () => {
      const served = sampleValue(await masterMetrics(), 'rampart_config_version');
      const applied = sampleValue(await agentMetrics(), 'rampart_agent_config_version_applied');
      expect(applied).toBeGreaterThan(0);
      expect(applied).toBe(served);
      const node = (await masterMetrics()).find((sample) => sample.name === 'rampart_node_config_version');
      expect(node?.value).toBe(served);
    }, 20_000);
    const fromMaster = await masterMetrics();
    expect(sampleValue(fromMaster, 'rampart_nodes', { state: 'online' })).toBe(1);
  });

  it('counts edge requests in nginx figures, and lines shipped by the agent and received by the master', async () => {
    const before = await agentMetrics();
    const masterBefore = await masterMetrics();
    expect(sampleValue(before, 'nginx_up')).toBe(1);
    const requests = sampleValue(before, 'nginx_http_requests_total');
    const shipped = sampleValue(before, 'rampart_agent_log_lines_shipped_total', { kind: 'access' });
    const received = sampleValue(masterBefore, 'rampart_ingest_lines_total', { kind: 'access' });
    // No site serves this name: the edge answers 404 and logs the request all the same.
    for (let i = 0; i < 3; i++) {
      const answer = await edgeRequest(edgePort.http, { host: 'nobody.metrics.example', path: `/n${i}` });
      expect(answer.status).toBe(404);
    }
    await eventually(async () => {
      const after = await agentMetrics();
      expect(sampleValue(after, 'nginx_http_requests_total')).toBeGreaterThanOrEqual(requests + 3);
      expect(sampleValue(after, 'rampart_agent_log_lines_shipped_total', { kind: 'access' })).toBeGreaterThanOrEqual(
        shipped + 3,
      );
      expect(sampleValue(after, 'rampart_agent_metric_reports_total', { result: 'sent' })).toBeGreaterThan(0);
      expect(sampleValue(after, 'rampart_agent_spool_batches')).toBe(0);
      const fromMaster = await masterMetrics();
      expect(sampleValue(fromMaster, 'rampart_ingest_lines_total', { kind: 'access' })).toBeGreaterThanOrEqual(
        received + 3,
      );
      expect(
        sampleValue(fromMaster, 'rampart_http_request_duration_seconds_count', {
          route: '/agent/v1/logs',
          method: 'POST',
          status_code: '200',
        }),
      ).toBeGreaterThan(0);
    }, 20_000);
  });

  it('answers only GET /metrics, on loopback', async () => {
    const other = await fetch(`http://127.0.0.1:${metricsPort}/status`);
    expect(other.status).toBe(404);
    await other.text();
    const refused = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' });
    expect(refused.status).toBe(404);
    await refused.text();
  });
});
