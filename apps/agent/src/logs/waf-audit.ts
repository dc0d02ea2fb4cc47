import { stat } from 'node:fs/promises';
import { formatBlockReason } from '@rampart/contracts';
import { readJsonFile, writeFileAtomic } from '../fs-atomic.ts';
import { errorText, type Logger } from '../logger.ts';
import { punchHole } from './punch-hole.ts';
import { type FilePosition, FileTailer } from './tailer.ts';

/** Rules that sum up (anomaly score, correlation) rather than detect: left out of the finding's rule list. */
const SUMMARY_RULES = new Set(['949110', '949111', '959100', '959101', '980130', '980140']);
/** The rule that decides a request is over the inbound anomaly threshold. */
const INBOUND_EXCEEDED = '949110';

/**
 * What a WAF transaction in ModSecurity's JSON audit log means for the block log: the block reason
 * (`kind=waf;action=block|detect;detail=<rule ids> <first message>`) of the request whose
 * transaction id the edge set (`w<profile>.<site>.<request id>`). Transactions that stayed under the
 * anomaly threshold are not findings (null): they are neither blocked nor worth a row.
 */
export function wafFinding(text: string): { tx: string; reason: string } | null {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return null;
  }
  const transaction = (entry as { transaction?: Record<string, unknown> } | null)?.transaction;
  if (!transaction || typeof transaction !== 'object') return null;
  const tx = transaction.unique_id;
  if (typeof tx !== 'string' || !/^w\d+\.\d+\.[0-9a-f]{1,64}$/.test(tx)) return null;
  const messages = Array.isArray(transaction.messages) ? (transaction.messages as unknown[]) : [];
  const hits = messages.flatMap((message) => {
    const m = message as { message?: unknown; details?: { ruleId?: unknown } } | null;
    const rule = m?.details?.ruleId;
    return typeof rule === 'string' && /^\d{1,7}$/.test(rule)
      ? [{ rule, message: typeof m?.message === 'string' ? m.message : '' }]
      : [];
  });
  if (!hits.some((hit) => hit.rule === INBOUND_EXCEEDED)) return null;
  const producer = transaction.producer as { secrules_engine?: unknown } | undefined;
  const response = transaction.response as { http_code?: unknown } | undefined;
  const detecting = producer?.secrules_engine === 'DetectionOnly' || response?.http_code !== 403;
  const attacks = hits.filter((hit) => !SUMMARY_RULES.has(hit.rule));
  const rules = [...new Set(attacks.map((hit) => hit.rule))].slice(0, 8);
  // Printable text only, and short: the whole reason fits the log's 256 characters.
  const first = (attacks[0]?.message ?? '').replace(/[^\x20-\x7e]/g, ' ').slice(0, 120);
  const detail = `${rules.length > 0 ? `rules ${rules.join(',')}` : 'anomaly score'}${first ? `: ${first}` : ''}`;
  return {
    tx,
    reason: formatBlockReason({
      kind: 'waf',
      action: detecting ? 'detect' : 'block',
      group: 0,
      match: 0,
      filter: 0,
      detail,
    }).slice(0, 256),
  };
}

export interface WafAuditOptions {
  /** Findings kept for access lines not read yet; the oldest go first beyond this. */
  maxFindings?: number;
  /**
   * Where the reader keeps the start of the text still on disk. Without it the text read is never
   * given back (a restarted reader starts from the top of the file).
   */
  cursorFile?: string;
  /** Read text is given back to the disk once this much of it has piled up... */
  releaseBytes?: number;
  /** ...less the last this many bytes: a restarted agent finds there the entries of lines it had not shipped. */
  keepBytes?: number;
  log?: Logger;
}

/**
 * Reads the WAF's audit log beside the access log: the access line of a WAF site's request carries
 * its transaction id, and the finding read here under that id becomes its block reason. In the log
 * phase nginx puts the access line in its buffer (buffer=64k) and ModSecurity then writes the audit
 * entry straight to its file; the buffer reaches the file later. So reading the audit log after a
 * batch of access lines finds the entries of all of them.
 *
 * The file is never renamed nor emptied: libmodsecurity does not reopen it on nginx's USR1 nor on a
 * reload, and the nginx master keeps every audit file it ever opened, so a renamed file would be
 * written to (and held) forever, and emptying it loses what is written between the last read and
 * the truncation. Instead the text read is given back to the disk in place (a hole), which loses
 * nothing that ModSecurity appends meanwhile.
 */
export class WafAudit {
  private readonly path: string;
  private tailer: FileTailer | null = null;
  private readonly findings = new Map<string, string>();
  private readonly maxFindings: number;
  private readonly cursorFile: string | null;
  private readonly releaseBytes: number;
  private readonly keepBytes: number;
  private readonly log: Logger | null;
  /** Where the text still on disk starts (before it: a hole). */
  private released: FilePosition | null = null;
  /** Ends of the reads so far, past the released part: line boundaries to release up to. */
  private marks: number[] = [];
  private releaseFailed = false;

  constructor(path: string, options: WafAuditOptions = {}) {
    this.path = path;
    this.maxFindings = options.maxFindings ?? 50_000;
    this.cursorFile = options.cursorFile ?? null;
    this.releaseBytes = options.releaseBytes ?? 64 * 1024 * 1024;
    this.keepBytes = options.keepBytes ?? 4 * 1024 * 1024;
    this.log = options.log ?? null;
  }

  /** Takes in everything new in the audit log. */
  async read(): Promise<void> {
    // From the start of the text still on disk: findings are only kept in memory.
    this.tailer ??= new FileTailer(this.path, await this.savedStart());
    for (let round = 0; round < 100; round++) {
      const lines = await this.tailer.read(500);
      for (const line of lines) {
        const finding = wafFinding(line);
        if (!finding) continue;
        this.findings.set(finding.tx, finding.reason);
        if (this.findings.size > this.maxFindings) {
          this.findings.delete(this.findings.keys().next().value as string);
        }
      }
      if (lines.length < 500) break;
    }
    await this.release(this.tailer);
  }

  /** The block reason of a transaction (once: it is forgotten after). */
  take(tx: string): string | null {
    const reason = this.findings.get(tx);
    if (reason === undefined) return null;
    this.findings.delete(tx);
    return reason;
  }

  async close(): Promise<void> {
    await this.tailer?.close();
  }

  private async savedStart(): Promise<FilePosition | null> {
    if (!this.cursorFile) return null;
    const saved = (await readJsonFile(this.cursorFile)) as Partial<FilePosition> | null;
    if (!saved || !Number.isSafeInteger(saved.ino) || !Number.isSafeInteger(saved.offset)) return null;
    this.released = { ino: saved.ino as number, offset: saved.offset as number };
    return this.released;
  }

  /** Punches out the text read so far, less the last `keepBytes`, once `releaseBytes` of it are on disk. */
  private async release(tailer: FileTailer): Promise<void> {
    const position = tailer.position();
    if (!this.cursorFile || this.releaseFailed || !position) return;
    // Another file, or the same one emptied by hand: nothing of it is released yet.
    if (this.released && (this.released.ino !== position.ino || this.released.offset > position.offset)) {
      this.released = null;
      this.marks = [];
    }
    if (this.marks.at(-1) !== position.offset) this.marks.push(position.offset);
    const from = this.released?.offset ?? 0;
    const limit = position.offset - this.keepBytes;
    const upTo = this.marks.findLastIndex((mark) => mark <= limit);
    const to = this.marks[upTo] ?? from;
    if (to - from < this.releaseBytes || to <= from) return;
    // The file at the path is the one read (the hole is punched by path).
    if ((await stat(this.path).catch(() => null))?.ino !== position.ino) return;
    try {
      // Saved first: a restarted reader starts after the hole, never inside it.
      await writeFileAtomic(this.cursorFile, JSON.stringify({ ino: position.ino, offset: to }), 0o600);
      this.released = { ino: position.ino, offset: to };
      this.marks = this.marks.slice(upTo + 1);
      await punchHole(this.path, from, to - from);
    } catch (error) {
      // The file only grows then; nothing is lost.
      this.releaseFailed = true;
      this.log?.warn('the WAF audit log cannot be given back to the disk; it keeps growing', {
        error: errorText(error),
      });
    }
  }
}
