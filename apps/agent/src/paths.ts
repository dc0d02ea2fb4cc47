import { join } from 'node:path';

/** The edge's Lua modules (package `rampart`), shipped with the agent. */
export const LUA_DIR = join(import.meta.dirname, '..', 'lua');

/** Where everything of one agent lives under its data directory. */
export interface AgentPaths {
  dataDir: string;
  /** Node credential, registration progress, finished jobs (0600). */
  stateFile: string;
  /** This node's key for signing challenge passes (0600, made on first use). */
  challengeKeyFile: string;
  /** nginx prefix (`nginx -p`). */
  nginxDir: string;
  /** One directory per rendered config tree. */
  confRoot: string;
  /** Symlink to the live config tree; nginx is started with `-c current/nginx.conf`. */
  currentLink: string;
  /** The last config tree proven live: what a restarted agent serves before it hears from the master. */
  provenFile: string;
  pidFile: string;
  tempDir: string;
  cacheDir: string;
  logsDir: string;
  accessLog: string;
  streamLog: string;
  errorLog: string;
  /** ModSecurity's audit log: the transactions a WAF rule matched (JSON lines). */
  wafAuditLog: string;
  spoolDir: string;
  logCursorFile: string;
  /** Where the WAF audit log reader resumes: the start of the text it has not given back to the disk. */
  wafAuditCursorFile: string;
}

export function agentPaths(dataDir: string): AgentPaths {
  const nginxDir = join(dataDir, 'nginx');
  const logsDir = join(dataDir, 'logs');
  return {
    dataDir,
    stateFile: join(dataDir, 'state.json'),
    challengeKeyFile: join(dataDir, 'challenge.key'),
    nginxDir,
    confRoot: join(nginxDir, 'conf'),
    currentLink: join(nginxDir, 'current'),
    provenFile: join(nginxDir, 'proven.json'),
    pidFile: join(nginxDir, 'run', 'nginx.pid'),
    tempDir: join(nginxDir, 'temp'),
    cacheDir: join(dataDir, 'cache'),
    logsDir,
    accessLog: join(logsDir, 'access.log'),
    streamLog: join(logsDir, 'stream.log'),
    errorLog: join(logsDir, 'error.log'),
    wafAuditLog: join(logsDir, 'waf-audit.log'),
    spoolDir: join(dataDir, 'spool'),
    logCursorFile: join(dataDir, 'log-cursor.json'),
    wafAuditCursorFile: join(dataDir, 'waf-audit-cursor.json'),
  };
}
