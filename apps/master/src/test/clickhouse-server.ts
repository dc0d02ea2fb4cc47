import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export const CLICKHOUSE_SERVER = '/usr/sbin/clickhouse-server';
const CONFIG = '/etc/clickhouse-server/config.xml';

export interface ClickHouseServer {
  /** http://127.0.0.1:port: a logs URL is this plus /database. */
  httpUrl: string;
  close(): Promise<void>;
}

/**
 * A real ClickHouse (Debian's clickhouse-server) as a private instance on loopback: its own data
 * directory and ports, the package's config otherwise, gone with its directory when closed.
 */
export async function launchClickHouse(): Promise<ClickHouseServer> {
  if (!existsSync(CLICKHOUSE_SERVER)) {
    throw new Error(`ClickHouse is not installed (${CLICKHOUSE_SERVER}): apt-get install clickhouse-server`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'rampart-clickhouse-'));
  const [http, tcp, interserver] = [await freePort(), await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    CLICKHOUSE_SERVER,
    [
      `--config-file=${CONFIG}`,
      '--',
      `--path=${dir}/`,
      `--tmp_path=${dir}/tmp/`,
      `--user_files_path=${dir}/user_files/`,
      `--format_schema_path=${dir}/format_schemas/`,
      `--http_port=${http}`,
      `--tcp_port=${tcp}`,
      `--interserver_http_port=${interserver}`,
      `--logger.log=${dir}/server.log`,
      `--logger.errorlog=${dir}/error.log`,
      '--logger.level=warning',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const httpUrl = `http://127.0.0.1:${http}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`clickhouse-server exited: ${output}`);
    const ready = await fetch(`${httpUrl}/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`clickhouse-server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    httpUrl,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
