import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestEdge } from '../apps/agent/test/support/edge.ts';
import { freePort, tempDir } from './support.ts';

export const NGINX = process.env.RAMPART_NGINX ?? '/usr/sbin/nginx';

/** A hand-written nginx in a private prefix (the baselines the edge is compared with). */
export interface PlainNginx {
  dir: string;
  stop(): void;
}

/** `main`: lines before the events block (load_module, say). */
export function startPlainNginx(name: string, httpBlock: string, main: string[] = []): PlainNginx {
  const dir = tempDir(`rampart-bench-${name}-`);
  chmodSync(dir, 0o755); // workers run as another user when started as root
  mkdirSync(join(dir, 'logs'));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    [
      ...main,
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'logs/error.log')} warn;`,
      'events { worker_connections 4096; }',
      `http {\n${httpBlock}\n}`,
      '',
    ].join('\n'),
  );
  execFileSync(NGINX, ['-p', dir, '-c', conf]);
  return {
    dir,
    stop: () => execFileSync(NGINX, ['-p', dir, '-c', conf, '-s', 'quit']),
  };
}

/** The files of an nginx a bench counts, pins or copies: its live config, its prefix, its pid file. */
export interface NginxFiles {
  conf: string;
  prefix: string;
  pidFile: string;
}

export const plainNginxFiles = (plain: PlainNginx): NginxFiles => ({
  conf: join(plain.dir, 'nginx.conf'),
  prefix: plain.dir,
  pidFile: join(plain.dir, 'nginx.pid'),
});

export const edgeNginxFiles = (edge: TestEdge): NginxFiles => ({
  conf: join(edge.paths.currentLink, 'nginx.conf'),
  prefix: edge.paths.nginxDir,
  pidFile: edge.paths.pidFile,
});

/**
 * Memory of an nginx master and its children in MB, as PSS: pages shared between them (the parsed
 * configuration is copied on write into every worker) count once, split between the sharers.
 */
export function nginxMemoryMb(pidFile: string): number {
  const master = Number(readFileSync(pidFile, 'utf8').trim());
  const rss = (pid: number) =>
    Number(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/Pss:\s+(\d+)/)?.[1] ?? 0);
  let total = rss(master);
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === master) total += rss(Number(entry));
    } catch {
      // the process went away meanwhile
    }
  }
  return total / 1024;
}

/** The origin of the edge benches: a plain nginx answering "origin" on a free loopback port. */
export async function startBenchOrigin(): Promise<{ port: number; nginx: PlainNginx }> {
  const port = await freePort();
  const nginx = startPlainNginx(
    'origin',
    `    access_log off;
    server { listen 127.0.0.1:${port}; location / { return 200 "origin\\n"; } }`,
  );
  return { port, nginx };
}

/**
 * The stock set-up's ModSecurity config, as Debian documents it: the engine on, request bodies read,
 * response bodies not, transactions over the threshold to a JSON audit log, then the CRS.
 */
export function stockModSecurityConf(auditLog: string, crsSetup: string, crsRules: string): string {
  return [
    'SecRuleEngine On',
    'SecRequestBodyAccess On',
    'SecResponseBodyAccess Off',
    'SecAuditEngine RelevantOnly',
    'SecAuditLogRelevantStatus "^$"',
    'SecAuditLogParts AHZ',
    'SecAuditLogFormat JSON',
    'SecAuditLogType Serial',
    `SecAuditLog ${auditLog}`,
    `Include ${crsSetup}`,
    `Include ${crsRules}/*.conf`,
    '',
  ].join('\n');
}
