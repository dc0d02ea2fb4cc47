import { join } from 'node:path';
import { MAX_AGENT_MASTERS } from '@rampart/contracts';
import { readJsonFile, writeFileAtomic } from '../fs-atomic.ts';
import { errorText, type Logger } from '../logger.ts';

/** One master's address as the agent takes it: http(s), no spaces or commas (those separate the list). */
const MASTER_URL = /^https?:\/\/[^\s,]+$/;

/** The address without trailing slashes: paths are appended to it. */
export const masterBase = (address: string) => address.replace(/\/+$/, '');

/** `a, b,c` → the addresses, without spaces around them (empty ones kept, for the check to refuse). */
export function splitMasterList(text: string): string[] {
  return text.split(',').map((address) => address.trim());
}

/** Scheme and host are case-insensitive, a default port may be written or not: the same master either way. */
function sameMasterKey(address: string): string {
  try {
    return masterBase(new URL(address).href);
  } catch {
    return address;
  }
}

/**
 * What is wrong with a list of masters, as the rule it breaks (for `--master …` or a config's
 * list), or null when the agent can use it.
 */
export function masterListProblem(masters: readonly string[]): string | null {
  if (masters.length === 0) return 'must name at least one master';
  if (masters.length > MAX_AGENT_MASTERS) return `must name at most ${MAX_AGENT_MASTERS} masters`;
  const seen = new Set<string>();
  for (const master of masters) {
    if (typeof master !== 'string' || !MASTER_URL.test(master)) {
      return `must be an http(s) URL, or several separated by commas (${JSON.stringify(master)} is not one)`;
    }
    const key = sameMasterKey(master);
    if (seen.has(key)) return `must name each master once (${master} is there twice)`;
    seen.add(key);
  }
  return null;
}

/** Where the masters the agent follows are kept (a transfer's new master, the list a config sent). */
export const mastersFile = (dataDir: string) => join(dataDir, 'master.json');

/**
 * The masters kept in the data directory, or null (none kept, or not a list the agent can use).
 * `{"master": URL}` is how agents before master lists kept a transfer's address.
 */
export async function savedMasters(dataDir: string): Promise<string[] | null> {
  const value = (await readJsonFile(mastersFile(dataDir))) as { masters?: unknown; master?: unknown } | null;
  const masters = Array.isArray(value?.masters) ? value.masters : [value?.master];
  if (!masters.every((master): master is string => typeof master === 'string')) return null;
  return masterListProblem(masters) === null ? masters.map(masterBase) : null;
}

/** Keeps the list for the next start (0600, written whole or not at all). */
export async function saveMasters(dataDir: string, masters: readonly string[]): Promise<void> {
  await writeFileAtomic(mastersFile(dataDir), `${JSON.stringify({ masters })}\n`, 0o600);
}

/** What followMasters needs of the client (MasterClient): its list, and a way to replace it. */
export interface MastersInUse {
  readonly masters: readonly string[];
  readonly baseUrl: string;
  useMasters(masters: readonly string[]): boolean;
}

/**
 * The masters a config names replace the client's list and are kept on disk; an empty list (or none)
 * leaves the list as it is. A list the agent cannot use is refused with a warning. True when the
 * list changed.
 */
export async function followMasters(
  client: MastersInUse,
  dataDir: string,
  masters: readonly string[] | undefined,
  log: Logger,
): Promise<boolean> {
  // The snapshot's shape is checked loosely (config-sync.ts): anything but a list reads as none.
  if (!Array.isArray(masters) || masters.length === 0) return false;
  const problem = masterListProblem(masters);
  if (problem) {
    log.warn('the config names masters this agent cannot use; it keeps its list', { masters, problem });
    return false;
  }
  if (!client.useMasters(masters)) return false;
  log.info('following the masters the config names', { masters: client.masters, master: client.baseUrl });
  try {
    await saveMasters(dataDir, client.masters);
  } catch (error) {
    log.warn('could not keep the list of masters for the next start', { error: errorText(error) });
  }
  return true;
}
