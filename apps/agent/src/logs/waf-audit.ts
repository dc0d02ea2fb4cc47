import { stat, truncate } from 'node:fs/promises';
import { formatBlockReason } from '@rampart/contracts';
import { FileTailer } from './tailer.ts';

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
  /** The audit log is emptied once it is this large and read to its end. */
  maxBytes?: number;
}

/**
 * Reads the WAF's audit log beside the access log: the access line of a WAF site's request carries
 * its transaction id, and the finding read here under that id becomes its block reason. In the log
 * phase nginx puts the access line in its buffer (buffer=64k) and ModSecurity then writes the audit
 * entry straight to its file; the buffer reaches the file later. So reading the audit log after a
 * batch of access lines finds the entries of all of them.
 */
export class WafAudit {
  private readonly path: string;
  private readonly tailer: FileTailer;
  private readonly findings = new Map<string, string>();
  private readonly maxFindings: number;
  private readonly maxBytes: number;

  constructor(path: string, options: WafAuditOptions = {}) {
    this.path = path;
    // Read from the start of the current file: findings are only kept in memory.
    this.tailer = new FileTailer(path, null);
    this.maxFindings = options.maxFindings ?? 50_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  /** Takes in everything new in the audit log. */
  async read(): Promise<void> {
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
    await this.emptyIfLarge();
  }

  /** The block reason of a transaction (once: it is forgotten after). */
  take(tx: string): string | null {
    const reason = this.findings.get(tx);
    if (reason === undefined) return null;
    this.findings.delete(tx);
    return reason;
  }

  async close(): Promise<void> {
    await this.tailer.close();
  }

  /**
   * ModSecurity keeps its audit log open across nginx's log reopening, and appends: emptying the file
   * in place is how it is kept small (the tailer starts again from the top of a file that shrank).
   */
  private async emptyIfLarge(): Promise<void> {
    const size = await stat(this.path).then(
      (s) => s.size,
      () => 0,
    );
    if (size < this.maxBytes || this.tailer.position()?.offset !== size) return;
    await truncate(this.path, 0);
  }
}
