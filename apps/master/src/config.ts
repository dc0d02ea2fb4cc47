import { resolve } from 'node:path';
import { parseLogsUrl } from './db/clickhouse/store.ts';

/** Everything the master reads from its environment (README lists each variable). */
export interface MasterConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** ClickHouse (http://host:8123/database) for the access and stream logs and their rollups. */
  logsUrl: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  dashboardDir: string;
  logLevel: string;
  secretKey: string | undefined;
  /** Extra CA certificates (PEM file) trusted for the ACME server, beside the public roots: a private ACME CA. */
  acmeCaFile: string | undefined;
  /** Bearer token a Prometheus scrape of /metrics must send; without one only loopback clients may scrape. */
  metricsToken: string | undefined;
}

const DEFAULT_DASHBOARD_DIR = resolve(import.meta.dirname, '../../dashboard/dist');

export function readConfig(env: NodeJS.ProcessEnv = process.env): MasterConfig {
  const port = Number(env.RAMPART_PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`RAMPART_PORT must be an integer from 0 to 65535, got "${env.RAMPART_PORT}"`);
  }
  const databaseUrl = env.RAMPART_DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('RAMPART_DATABASE_URL must start with postgres:// (leave it unset for SQLite)');
  }
  const logsUrl = env.RAMPART_LOGS_URL || undefined;
  if (logsUrl) parseLogsUrl(logsUrl);
  return {
    host: env.RAMPART_HOST || '127.0.0.1',
    port,
    dataDir: resolve(env.RAMPART_DATA_DIR || './data'),
    databaseUrl,
    logsUrl,
    adminPassword: env.RAMPART_ADMIN_PASSWORD || undefined,
    smtpUrl: env.RAMPART_SMTP_URL || undefined,
    smtpFrom: env.RAMPART_SMTP_FROM || 'Rampart <no-reply@localhost>',
    dashboardDir: resolve(env.RAMPART_DASHBOARD_DIR || DEFAULT_DASHBOARD_DIR),
    logLevel: env.RAMPART_LOG_LEVEL || 'info',
    secretKey: env.RAMPART_SECRET_KEY || undefined,
    acmeCaFile: env.RAMPART_ACME_CA_FILE ? resolve(env.RAMPART_ACME_CA_FILE) : undefined,
    metricsToken: env.RAMPART_METRICS_TOKEN || undefined,
  };
}
