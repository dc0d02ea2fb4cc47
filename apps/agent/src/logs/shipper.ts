import { type AccessLogLine, LogBatchAck, type LogBatchBody, type StreamLogLine } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { errorText, type Logger } from '../logger.ts';
import type { AgentPaths } from '../paths.ts';
import { Backoff, pause } from '../sync/backoff.ts';
import { type MasterClient, MasterError } from '../sync/master-client.ts';
import { parseAccessRecord, parseStreamLine } from './normalize.ts';
import { Spool, type SpooledBatch } from './spool.ts';
import { FileTailer } from './tailer.ts';
import type { WafAudit } from './waf-audit.ts';

const checkAck = Compile(LogBatchAck);

/** Lines read from one log before the other gets its turn. */
const SLICE_LINES = 1000;

/** A batch to send: its lines, and `body`, the same as the request's JSON (made once, when it was spooled). */
export type OutgoingBatch = LogBatchBody & { readonly body: Uint8Array<ArrayBuffer> };

/** Sends one batch to the master (POST /agent/v1/logs) and returns its acknowledgement. */
export type SendBatch = (batch: OutgoingBatch, signal: AbortSignal) => Promise<LogBatchAck>;

/**
 * Batches to the master's POST /agent/v1/logs. The client goes on to the next master when one does
 * not answer, with the same batch: the master stores each (node, seq) once, so a batch whose answer
 * was lost with its master is sent again, never dropped. `onShipped` is told once a batch, when
 * it is acknowledged.
 */
export function masterSender(
  client: MasterClient,
  headers: Record<string, string>,
  onShipped?: (batch: OutgoingBatch) => void,
): SendBatch {
  return async (batch, signal) => {
    const ack = await client.call<LogBatchAck>(
      { method: 'POST', path: '/agent/v1/logs', headers, json: batch.body, signal, timeoutMs: 30_000 },
      LogBatchAck,
    );
    onShipped?.(batch);
    return ack;
  };
}

export interface ShipperOptions {
  paths: Pick<AgentPaths, 'accessLog' | 'streamLog' | 'spoolDir' | 'logCursorFile'>;
  spoolMaxBytes: number;
  /** A batch is closed at this many lines... */
  batchLines?: number;
  /** Batches sent at once: the next is on its way while the master stores one (it stores each (node, seq) once). */
  inFlight?: number;
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
  private readonly inFlight: number;
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
    // Large batches: each costs the master a request and a transaction, and ClickHouse a part per table.
    this.batchLines = options.batchLines ?? 5000;
    this.batchBytes = options.batchBytes ?? 2 * 1024 * 1024;
    this.inFlight = options.inFlight ?? 2;
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
    // A log nginx has not written yet (no stream in use) is looked for once a poll, not at every read.
    const tailerOptions = { graceMs: this.options.rotationGraceMs ?? 1000, missingRetryMs: this.pollMs };
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

  /**
   * Reads what is new into the open batch and closes the batch when it is full or old enough, or
   * when it ends a backlog: lines read in the same pass as a full batch are late already, so they
   * do not wait for the batch's time (a steady trickle still goes in one batch a `batchMs`).
   */
  async collect(): Promise<void> {
    let backlog = false;
    for (;;) {
      const before = this.size();
      // Access and stream lines take turns by slices, each read bounded by the batch's room in bytes.
      const texts = await this.access!.read(
        Math.min(SLICE_LINES, this.batchLines - before),
        this.batchBytes - this.pending.bytes,
      );
      const records = texts.map(parseAccessRecord);
      // After the access lines: the audit entries of their requests are on disk by now.
      if (this.options.wafAudit && records.some((record) => record?.wafTx.startsWith('w'))) {
        await this.options.wafAudit.read();
      }
      let read = texts.length;
      for (let i = 0; i < texts.length; i++) this.take(texts[i]!, this.accessLine(records[i]!), this.pending.access);
      const left = Math.min(SLICE_LINES, this.batchLines - this.size());
      if (left > 0 && this.pending.bytes < this.batchBytes) {
        for (const text of await this.stream!.read(left, this.batchBytes - this.pending.bytes)) {
          read++;
          this.take(text, parseStreamLine(text), this.pending.stream);
        }
      }
      const size = this.size();
      if (size > 0 && before === 0) this.pending.since = Date.now();
      const full = size >= this.batchLines || this.pending.bytes >= this.batchBytes;
      if (full) backlog = true;
      const due = size > 0 && (Date.now() - this.pending.since >= this.batchMs || (backlog && read === 0));
      if (full || due) await this.seal();
      if (read === 0) return;
    }
  }

  /** An access line, with the WAF's finding as its block reason when protection had none. */
  private accessLine(record: ReturnType<typeof parseAccessRecord>): AccessLogLine | null {
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

  /**
   * Sends the spool's batches oldest first, up to `inFlight` at a time. After a failure the ones
   * still on their way are let finish, then, after a backoff, sending starts again from the oldest
   * batch not acknowledged (the master recognises a batch it stored already by its seq).
   */
  private async sendLoop(): Promise<void> {
    const signal = this.controller.signal;
    const backoff = new Backoff(500, 30_000);
    const sending = new Map<number, Promise<void>>();
    /** The newest seq handed to the sender since the last failure. */
    let last = 0;
    let failed: { seq: number; error: unknown } | null = null;
    while (!signal.aborted) {
      const sender = this.sender;
      const room = sender !== null && failed === null && sending.size < this.inFlight;
      const batch = room ? await this.spool.oldest(last) : null;
      if (batch && sender) {
        last = batch.seq;
        const sent = this.sendOne(batch, sender, signal).then(
          () => backoff.reset(),
          (error: unknown) => {
            if (failed === null || batch.seq < failed.seq) failed = { seq: batch.seq, error };
          },
        );
        sending.set(
          batch.seq,
          sent.finally(() => sending.delete(batch.seq)),
        );
        continue;
      }
      if (sending.size > 0) {
        // A batch sealed meanwhile may go out beside the ones on their way.
        await Promise.race([...sending.values(), this.woken()]);
        this.wake = null;
        continue;
      }
      if (failed !== null) {
        const { seq, error } = failed;
        failed = null;
        last = 0;
        if (signal.aborted) return;
        const delay = backoff.next();
        this.options.log.warn('log shipping failed; kept in the spool', {
          seq,
          error: errorText(error),
          retry_ms: delay,
        });
        await pause(delay, signal);
        continue;
      }
      // A stop that came while the spool was being read must not wait for the timer.
      if (signal.aborted) return;
      await Promise.race([this.woken(), pause(1000, signal)]);
      this.wake = null;
    }
    await Promise.all(sending.values());
  }

  /** Resolves at the next seal (or stop). */
  private woken(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  /** One batch: acknowledged and removed, or refused for good and dropped; throws when worth retrying. */
  private async sendOne(batch: SpooledBatch, sender: SendBatch, signal: AbortSignal): Promise<void> {
    try {
      await this.send(batch, sender, signal);
    } catch (error) {
      if (signal.aborted || !(error instanceof MasterError) || error.retryable || error.unauthorized) throw error;
      // The master will never take this batch: count its lines as dropped, go on with the next.
      this.options.log.error('the master refused a log batch; dropping it', {
        seq: batch.seq,
        error: errorText(error),
      });
      await this.spool.addDropped(batch.access.length + batch.stream.length);
      await this.spool.remove(batch.seq);
    }
  }

  private async send(batch: SpooledBatch, sender: SendBatch, signal: AbortSignal): Promise<void> {
    const { seq, access, stream, body } = batch;
    const ack = await sender({ seq, access, stream, body }, signal);
    if (!checkAck.Check(ack) || ack.seq !== batch.seq) {
      throw new MasterError('bad_answer', `log batch ${batch.seq} acknowledged as ${JSON.stringify(ack)}`, 502);
    }
    await this.spool.remove(batch.seq);
  }
}

function emptyBatch() {
  return { access: [] as AccessLogLine[], stream: [] as StreamLogLine[], malformed: 0, bytes: 0, since: 0 };
}
