import { type AccessLogLine, LogBatchAck, type LogBatchBody, type StreamLogLine } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { errorText, type Logger } from '../logger.ts';
import type { AgentPaths } from '../paths.ts';
import { Backoff, pause } from '../sync/backoff.ts';
import { MasterError } from '../sync/master-client.ts';
import { parseAccessRecord, parseStreamLine } from './normalize.ts';
import { Spool, type SpooledBatch } from './spool.ts';
import { FileTailer } from './tailer.ts';
import type { WafAudit } from './waf-audit.ts';

const checkAck = Compile(LogBatchAck);

/** Sends one batch to the master (POST /agent/v1/logs) and returns its acknowledgement. */
export type SendBatch = (batch: LogBatchBody, signal: AbortSignal) => Promise<LogBatchAck>;

export interface ShipperOptions {
  paths: Pick<AgentPaths, 'accessLog' | 'streamLog' | 'spoolDir' | 'logCursorFile'>;
  spoolMaxBytes: number;
  /** A batch is closed at this many lines... */
  batchLines?: number;
  /** ...or about this many bytes of log text (the master limits request bodies)... */
  batchBytes?: number;
  /** ...or this long after its first line. */
  batchMs?: number;
  pollMs?: number;
  rotationGraceMs?: number;
  /** The WAF's findings, by the transaction id of access lines; absent without a WAF. */
  wafAudit?: WafAudit;
  /** Lines as they go into a batch (for per-site counters). */
  onLines?: (access: AccessLogLine[], stream: StreamLogLine[]) => void;
  /** Told when batches stop being writable to the spool (its disk is full): the lines wait in memory. */
  onSpoolError?: (error: string) => void;
  log: Logger;
}

/**
 * Tails the access and stream logs into numbered batches on disk and ships them, oldest first,
 * until acknowledged: at least once from the agent, stored once by the master (node, seq).
 */
export class LogShipper {
  readonly spool: Spool;
  private readonly options: ShipperOptions;
  private readonly batchLines: number;
  private readonly batchBytes: number;
  private readonly batchMs: number;
  private readonly pollMs: number;
  private access: FileTailer | null = null;
  private stream: FileTailer | null = null;
  private pending = emptyBatch();
  private sender: SendBatch | null = null;
  private readonly controller = new AbortController();
  private wake: (() => void) | null = null;
  private loops: Promise<void>[] = [];

  /** The last batch could not be written (disk full): sealing is tried again at the next read. */
  private spoolFailing = false;

  constructor(options: ShipperOptions) {
    this.options = options;
    this.batchLines = options.batchLines ?? 1000;
    this.batchBytes = options.batchBytes ?? 512 * 1024;
    this.batchMs = options.batchMs ?? 1000;
    this.pollMs = options.pollMs ?? 200;
    this.spool = new Spool(options.paths.spoolDir, options.paths.logCursorFile, options.spoolMaxBytes);
  }

  get droppedLines(): number {
    return this.spool.cursor.dropped;
  }

  /** Positions of the tailers (what is taken into batches so far). */
  positions() {
    return { access: this.access?.position() ?? null, stream: this.stream?.position() ?? null };
  }

  async start(): Promise<void> {
    const cursor = await this.spool.open();
    const tailerOptions = { graceMs: this.options.rotationGraceMs ?? 1000 };
    this.access = new FileTailer(this.options.paths.accessLog, cursor.access, tailerOptions);
    this.stream = new FileTailer(this.options.paths.streamLog, cursor.stream, tailerOptions);
    this.loops = [this.collectLoop(), this.sendLoop()];
  }

  /** Where batches go; until it is set (the node is not accepted yet) they stay in the spool. */
  setSender(sender: SendBatch): void {
    this.sender = sender;
    this.wake?.();
  }

  /**
   * Stops both loops; lines already read go into a last batch on disk. With `seal: false` they are
   * left to be read again by the next start, as after a crash.
   */
  async stop(options: { seal?: boolean } = {}): Promise<void> {
    this.controller.abort();
    this.wake?.();
    await Promise.all(this.loops);
    if (options.seal !== false) await this.seal();
    await this.access?.close();
    await this.stream?.close();
    await this.options.wafAudit?.close();
  }

  private async collectLoop(): Promise<void> {
    const signal = this.controller.signal;
    while (!signal.aborted) {
      try {
        await this.collect();
      } catch (error) {
        this.options.log.error('reading logs failed', { error: errorText(error) });
      }
      await pause(this.pollMs, signal);
    }
  }

  /** Reads what is new into the open batch and closes the batch when it is full or old enough. */
  async collect(): Promise<void> {
    for (;;) {
      const before = this.size();
      // Small reads, so the byte bound is checked often enough.
      const room = Math.min(100, this.batchLines - this.size());
      let read = 0;
      const texts = await this.access!.read(room);
      // After the access lines: the audit entries of their requests are on disk by now.
      if (texts.some((text) => text.includes('"waf_tx":"w'))) await this.options.wafAudit?.read();
      for (const text of texts) {
        read++;
        this.take(text, this.accessLine(text), this.pending.access);
      }
      const left = Math.min(100, this.batchLines - this.size());
      if (left > 0) {
        for (const text of await this.stream!.read(left)) {
          read++;
          this.take(text, parseStreamLine(text), this.pending.stream);
        }
      }
      const size = this.size();
      if (size > 0 && before === 0) this.pending.since = Date.now();
      const full = size >= this.batchLines || this.pending.bytes >= this.batchBytes;
      if (full || (size > 0 && Date.now() - this.pending.since >= this.batchMs)) await this.seal();
      if (read === 0) return;
    }
  }

  /** An access line, with the WAF's finding as its block reason when protection had none. */
  private accessLine(text: string): AccessLogLine | null {
    const record = parseAccessRecord(text);
    if (!record) return null;
    const { line, wafTx } = record;
    if (wafTx !== '' && this.options.wafAudit) {
      const finding = this.options.wafAudit.take(wafTx);
      if (finding && line.block_reason === '') line.block_reason = finding;
    }
    return line;
  }

  private size(): number {
    return this.pending.access.length + this.pending.stream.length;
  }

  private take<T>(text: string, line: T | null, into: T[]): void {
    this.pending.bytes += text.length;
    if (line) into.push(line);
    else this.pending.malformed++;
  }

  private async seal(): Promise<void> {
    const { access, stream, malformed } = this.pending;
    if (access.length + stream.length + malformed === 0 || !this.access || !this.stream) return;
    let batch: Awaited<ReturnType<Spool['add']>>;
    try {
      batch = await this.spool.add(access, stream, this.positions(), malformed);
    } catch (error) {
      // The spool's disk is full: the lines stay in hand (the logs are read no further meanwhile)
      // and are written once sending frees room. None is lost, none is counted twice.
      const why = errorText(error);
      if (!this.spoolFailing) {
        this.options.log.warn('log spool not writable; lines kept until it is', { error: why });
        this.options.onSpoolError?.(why);
      }
      this.spoolFailing = true;
      return;
    }
    if (this.spoolFailing) this.options.log.info('log spool writable again');
    this.spoolFailing = false;
    this.pending = emptyBatch();
    if (batch === null && access.length + stream.length > 0) {
      this.options.log.warn('log spool full; lines dropped', { lines: access.length + stream.length });
    }
    this.options.onLines?.(access, stream);
    this.wake?.();
  }

  private async sendLoop(): Promise<void> {
    const signal = this.controller.signal;
    const backoff = new Backoff(500, 30_000);
    while (!signal.aborted) {
      const batch = this.sender ? await this.spool.oldest() : null;
      if (!batch || !this.sender) {
        // A stop that came while the spool was being read must not wait for the timer.
        if (signal.aborted) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, 1000).unref();
        });
        this.wake = null;
        continue;
      }
      try {
        await this.send(batch, this.sender, signal);
        backoff.reset();
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof MasterError && !error.retryable && !error.unauthorized) {
          // The master will never take this batch: count its lines as dropped, go on with the next.
          this.options.log.error('the master refused a log batch; dropping it', {
            seq: batch.seq,
            error: errorText(error),
          });
          await this.spool.addDropped(batch.access.length + batch.stream.length);
          await this.spool.remove(batch.seq);
          continue;
        }
        const delay = backoff.next();
        this.options.log.warn('log shipping failed; kept in the spool', {
          seq: batch.seq,
          error: errorText(error),
          retry_ms: delay,
        });
        await pause(delay, signal);
      }
    }
  }

  private async send(batch: SpooledBatch, sender: SendBatch, signal: AbortSignal): Promise<void> {
    const ack = await sender({ seq: batch.seq, access: batch.access, stream: batch.stream }, signal);
    if (!checkAck.Check(ack) || ack.seq !== batch.seq) {
      throw new MasterError('bad_answer', `log batch ${batch.seq} acknowledged as ${JSON.stringify(ack)}`, 502);
    }
    await this.spool.remove(batch.seq);
  }
}

function emptyBatch() {
  return { access: [] as AccessLogLine[], stream: [] as StreamLogLine[], malformed: 0, bytes: 0, since: 0 };
}
