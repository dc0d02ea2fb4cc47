import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  type AgentCommand,
  type CommandResultBody,
  CommandsAnswer,
  type CommandsAnswer as CommandsAnswerBody,
  NODE_TOKEN_HEADER,
  type SelfTestResult,
} from '@rampart/contracts';
import { errorText, type Logger } from '../logger.ts';
import { Backoff, pause } from '../sync/backoff.ts';
import type { MasterClient } from '../sync/master-client.ts';
import { saveMasters } from '../sync/master-list.ts';
import type { ReleaseInstaller } from './release-installer.ts';
import { clearTrial, readTrial, writeTrial } from './trial.ts';

export interface CommandRunnerOptions {
  client: MasterClient;
  credential: string;
  dataDir: string;
  installer: ReleaseInstaller;
  selfTest: () => Promise<SelfTestResult>;
  /** Called once a new release is in place and healthy: the agent restarts into it. */
  onUpgraded: (version: string) => void;
  log: Logger;
  waitSeconds?: number;
}

/**
 * Takes the master's /sys/op commands on a long poll of their own: a self-test, an upgrade to a
 * release (download, verify, switch, health check, roll back by itself), a new master address.
 * Each answer is sent back; one that cannot be sent is retried until the master takes it.
 */
export class CommandRunner {
  private readonly options: CommandRunnerOptions;
  private readonly auth: Record<string, string>;

  constructor(options: CommandRunnerOptions) {
    this.options = options;
    this.auth = { [NODE_TOKEN_HEADER]: options.credential };
  }

  async run(signal: AbortSignal): Promise<void> {
    const backoff = new Backoff();
    const wait = this.options.waitSeconds ?? 25;
    // A release on trial is confirmed (or its rollback told) by the first answer that reaches the master.
    await this.settleTrial(signal);
    while (!signal.aborted) {
      let answer: CommandsAnswerBody;
      try {
        answer = await this.options.client.call<CommandsAnswerBody>(
          {
            method: 'GET',
            path: `/agent/v1/commands?wait=${wait}`,
            headers: this.auth,
            signal,
            holdSeconds: wait,
          },
          CommandsAnswer,
        );
        backoff.reset();
      } catch (error) {
        if (signal.aborted) return;
        this.options.log.warn('command poll failed', { error: errorText(error) });
        await pause(backoff.next(), signal);
        continue;
      }
      for (const command of answer.commands) {
        if (signal.aborted) return;
        const result = await this.perform(command, signal);
        if (command.kind === 'upgrade' && result.state === 'done') {
          // Reported by the new agent once it reaches the master (or by this one after a rollback).
          await writeTrial(this.options.dataDir, {
            command_id: command.id,
            version: command.version,
            state: 'trial',
            starts: 0,
            log: result.log.split('\n'),
          });
          this.options.onUpgraded(command.version);
          return;
        }
        await this.report(command.id, result, signal);
      }
    }
  }

  async perform(command: AgentCommand, signal: AbortSignal): Promise<CommandResultBody> {
    try {
      switch (command.kind) {
        case 'self-test':
          return { state: 'done', log: '', self_test: await this.options.selfTest() };
        case 'upgrade':
          return await this.upgrade(command, signal);
        case 'master-address':
          // Kept first, so a restarted agent follows it too; it replaces the whole list of masters.
          await saveMasters(this.options.dataDir, [command.master]);
          this.options.client.moveTo(command.master);
          this.options.log.info('following a new master', { master: command.master });
          return { state: 'done', log: `now following ${command.master}` };
      }
    } catch (error) {
      return { state: 'failed', log: errorText(error).slice(0, 8000) };
    }
  }

  private async upgrade(
    command: Extract<AgentCommand, { kind: 'upgrade' }>,
    signal: AbortSignal,
  ): Promise<CommandResultBody> {
    const dir = join(this.options.dataDir, 'upgrade');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const bundle = join(dir, `release-${command.release_id}.tar.gz`);
    try {
      const response = await fetch(`${this.options.client.baseUrl}/agent/v1/releases/${command.release_id}/bundle`, {
        headers: this.auth,
        signal: AbortSignal.any([signal, AbortSignal.timeout(30 * 60_000)]),
      });
      if (!response.ok || !response.body) return { state: 'failed', log: `download failed: HTTP ${response.status}` };
      // The same stream under Node's own type (a DOM lib, as the benches use, names it differently).
      const body = response.body as unknown as WebReadableStream<Uint8Array>;
      await pipeline(Readable.fromWeb(body), createWriteStream(bundle, { mode: 0o600 }));
      const outcome = await this.options.installer.install(bundle, command);
      this.options.log.info('upgrade', { version: command.version, state: outcome.state });
      return { state: outcome.state, log: outcome.log.join('\n').slice(-8000) };
    } finally {
      await rm(bundle, { force: true });
    }
  }

  private async settleTrial(signal: AbortSignal): Promise<void> {
    const trial = await readTrial(this.options.dataDir);
    if (!trial) return;
    const confirmed = trial.state === 'trial';
    const log = [...trial.log, confirmed ? `the new agent reached the master after ${trial.starts} start(s)` : ''];
    await this.report(
      trial.command_id,
      { state: confirmed ? 'done' : 'rolled_back', log: log.filter(Boolean).join('\n').slice(-8000) },
      signal,
    );
    if (!signal.aborted) await clearTrial(this.options.dataDir);
  }

  private async report(id: number, body: CommandResultBody, signal: AbortSignal): Promise<void> {
    const backoff = new Backoff();
    while (!signal.aborted) {
      try {
        await this.options.client.call(
          { method: 'POST', path: `/agent/v1/commands/${id}/result`, headers: this.auth, body, signal },
          null,
        );
        return;
      } catch (error) {
        // Refused for good (the command was settled or given up): nothing to send again.
        if ((error as { retryable?: boolean }).retryable === false) return;
        await pause(backoff.next(), signal);
      }
    }
  }
}
