import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonFile, writeFileAtomic } from '../fs-atomic.ts';
import type { Logger } from '../logger.ts';
import type { ReleaseInstaller } from './release-installer.ts';

/** A release that passed its health check and runs on trial until it reaches the master. */
export interface UpgradeTrial {
  command_id: number;
  version: string;
  state: 'trial' | 'rolled_back';
  /** Starts of the new agent so far that did not reach the master. */
  starts: number;
  log: string[];
}

/** Starts a new agent may make without reaching the master before the previous one is put back. */
export const MAX_TRIAL_STARTS = 3;

export const trialFile = (dataDir: string) => join(dataDir, 'upgrade-trial.json');

export async function readTrial(dataDir: string): Promise<UpgradeTrial | null> {
  const value = (await readJsonFile(trialFile(dataDir))) as Partial<UpgradeTrial> | null;
  if (!value || typeof value.command_id !== 'number' || (value.state !== 'trial' && value.state !== 'rolled_back')) {
    return null;
  }
  return {
    command_id: value.command_id,
    version: String(value.version ?? ''),
    state: value.state,
    starts: Number(value.starts) || 0,
    log: Array.isArray(value.log) ? value.log.map(String) : [],
  };
}

export const writeTrial = (dataDir: string, trial: UpgradeTrial) =>
  writeFileAtomic(trialFile(dataDir), `${JSON.stringify(trial)}\n`, 0o600);

export const clearTrial = (dataDir: string) => rm(trialFile(dataDir), { force: true });

/**
 * At each start of the agent: a release on trial that started MAX_TRIAL_STARTS times without
 * reaching the master is taken out and the previous agent put back; true when the agent must then
 * stop, so that the service manager starts the previous one (which reports the rollback).
 */
export async function startOnTrial(dataDir: string, installer: ReleaseInstaller, log: Logger): Promise<boolean> {
  const trial = await readTrial(dataDir);
  if (trial?.state !== 'trial') return false;
  trial.starts++;
  if (trial.starts <= MAX_TRIAL_STARTS) {
    await writeTrial(dataDir, trial);
    return false;
  }
  await installer.rollBack();
  trial.state = 'rolled_back';
  trial.log.push(
    `the new agent started ${MAX_TRIAL_STARTS} times without reaching the master: rolled back to the previous agent`,
  );
  await writeTrial(dataDir, trial);
  log.error('the new agent never reached the master; the previous agent is back', { version: trial.version });
  return true;
}
