import { statfs } from 'node:fs/promises';
import type { SelfTestResult } from '@rampart/contracts';
import type { ConfigStore } from '../apply/config-store.ts';
import type { Nginx } from '../apply/nginx.ts';

export interface SelfTestSources {
  nginx: Nginx;
  store: ConfigStore;
  dataDir: string;
  agentVersion: string;
}

/** The agent's answer to /v1/maintain/agent-check: nginx config test and process, disk, config version, clock. */
export async function runSelfTest({ nginx, store, dataDir, agentVersion }: SelfTestSources): Promise<SelfTestResult> {
  const gen = await store.currentGen();
  const test = gen ? await nginx.test(store.confPath(gen)) : { ok: false, output: 'no config has been applied yet' };
  const disk = await statfs(dataDir).catch(() => null);
  const proven = await store.proven();
  return {
    nginx_config_ok: test.ok,
    nginx_running: (await nginx.pid()) !== null,
    nginx_output: test.output.trim().slice(-2000),
    disk_free_bytes: disk ? disk.bavail * disk.bsize : 0,
    disk_total_bytes: disk ? disk.blocks * disk.bsize : 0,
    applied_version: proven?.version ?? 0,
    agent_version: agentVersion,
    time_ms: Date.now(),
  };
}
