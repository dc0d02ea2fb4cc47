import { isIP } from 'node:net';
import type { OriginHealthEntry } from '@rampart/contracts';
import { localRequest } from '../local-http.ts';

const ERROR_MAX = 256;

const isCount = (value: unknown, max: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;

/** One entry of the edge's answer, checked; null for anything else. */
function entryOf(value: unknown): OriginHealthEntry | null {
  if (typeof value !== 'object' || value === null) return null;
  const { site_id, address, port, up, checked_at, error } = value as Record<string, unknown>;
  if (!isCount(site_id, Number.MAX_SAFE_INTEGER) || site_id < 1) return null;
  if (typeof address !== 'string' || address.length > 64 || isIP(address) === 0) return null;
  if (!isCount(port, 65535) || port < 1 || typeof up !== 'boolean' || !isCount(checked_at, Number.MAX_SAFE_INTEGER)) {
    return null;
  }
  if (typeof error !== 'string') return null;
  return { site_id, address, port, up, checked_at, error: error.slice(0, ERROR_MAX) };
}

/**
 * What the edge's health checks say of each checked origin (the control server's /health-checks),
 * for the status report; undefined when nginx does not answer, so the master keeps the last report.
 */
export async function readOriginHealth(controlPort: number): Promise<OriginHealthEntry[] | undefined> {
  const answer = await localRequest({ port: controlPort, path: '/health-checks', timeoutMs: 2000 });
  if (answer?.status !== 200) return undefined;
  let list: unknown;
  try {
    list = JSON.parse(answer.body);
  } catch {
    return undefined;
  }
  if (!Array.isArray(list)) return undefined;
  return list.map(entryOf).filter((entry): entry is OriginHealthEntry => entry !== null);
}
