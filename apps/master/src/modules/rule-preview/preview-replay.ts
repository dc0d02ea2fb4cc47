import type {
  FilterType,
  PreviewOutcome,
  PreviewRateCrossing,
  PreviewSample,
  RuleAction,
  RulePreview,
} from '@rampart/contracts';
import { edgeRequest, type LogFields } from './nginx-request.ts';
import type { RequestTest } from './preview-conditions.ts';

/**
 * A draft rule replayed over a site's log lines in time order, as protect.lua runs it: an ACL's
 * first holding entry decides (allow or deny); a rule group's lines run top to bottom, each whose
 * match holds runs its filter, and the first failure that decides ends them (a `log` line's failure
 * is counted and the next lines run). Rate counters are the edge's: a counter per address (and path
 * for ip_url) starts at its first request and lasts `seconds`; a request beyond `requests` in it fails.
 */

/** An ACL entry; `test` null when the log cannot answer its condition (the entry is left out). */
export interface AclStep {
  allow: boolean;
  test: RequestTest | null;
}

export interface PreviewFilter {
  type: FilterType;
  requests?: number | undefined;
  seconds?: number | undefined;
  per?: 'ip' | 'ip_url' | undefined;
  delay_ms?: number | undefined;
}

/** A rule line; `test` null when the log cannot answer its match (the line is left out). */
export interface PreviewLine {
  test: RequestTest | null;
  filter: PreviewFilter;
  action: RuleAction;
  banSeconds: number;
}

export type PreviewPlan =
  /** `reads`: the fields beyond address, country, URI and agent its conditions read. */
  | { kind: 'acl'; entries: AclStep[]; reads: readonly ('method' | 'host' | 'referer')[] }
  | { kind: 'lines'; lines: PreviewLine[]; whitelisted: ((address: string) => boolean) | null };

export interface PreviewLogLine extends LogFields {
  time_ms: number;
  status: number;
}

export const OUTCOMES: readonly PreviewOutcome[] = ['allow', 'pass', 'block', 'challenge', 'delay', 'ban', 'log'];
const STOPPING = new Set<PreviewOutcome>(['block', 'ban', 'challenge']);
const SAMPLES = 20;
const TOP = 10;
const CROSSINGS = 100;

/** A byte string (as nginx had it) as the text it was: UTF-8 again. */
const shown = (bytes: string) => (/^[\x20-\x7e]*$/.test(bytes) ? bytes : Buffer.from(bytes, 'latin1').toString('utf8'));

const sampleOf = (line: PreviewLogLine, outcome: PreviewOutcome): PreviewSample => ({
  time: new Date(line.time_ms).toISOString(),
  client_ip: line.client_ip,
  country: line.country,
  method: line.method,
  host: line.host,
  uri: line.uri,
  status: line.status,
  user_agent: line.user_agent,
  referer: line.referer,
  outcome,
});

class Counter {
  readonly counts = new Map<string, number>();

  add(value: string, requests = 1) {
    this.counts.set(value, (this.counts.get(value) ?? 0) + requests);
  }

  top(limit: number) {
    return [...this.counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, limit)
      .map(([value, requests]) => ({ value, requests }));
  }
}

interface RateWindow {
  start: number;
  count: number;
}

export type PreviewTally = Pick<
  RulePreview,
  'matched' | 'stopped' | 'stopped_addresses' | 'outcomes' | 'addresses' | 'top' | 'samples' | 'rate_crossings'
>;

export class RuleReplay {
  readonly #plan: PreviewPlan;
  #matched = 0;
  #stopped = 0;
  readonly #outcomes = new Map<PreviewOutcome, number>(OUTCOMES.map((outcome) => [outcome, 0]));
  readonly #stoppedAddresses = new Set<string>();
  readonly #addresses = new Counter();
  readonly #paths = new Counter();
  readonly #agents = new Counter();
  readonly #countries = new Counter();
  readonly #samples: PreviewSample[] = [];
  /** Rate counters per line, by address (and path). */
  readonly #windows: Map<string, RateWindow>[];
  readonly #bannedUntil = new Map<string, number>();
  readonly #crossings = new Map<string, { first: number; over: number }>();

  constructor(plan: PreviewPlan) {
    this.#plan = plan;
    this.#windows = plan.kind === 'lines' ? plan.lines.map(() => new Map()) : [];
  }

  /** One log line, in time order. */
  add(line: PreviewLogLine) {
    const request = edgeRequest(line);
    // nginx answered 400 before any rule ran.
    if (request.uri === null) return;
    const outcome = this.#plan.kind === 'acl' ? this.#acl(this.#plan.entries, request) : this.#lines(line, request);
    if (outcome === null) return;
    this.#count(line, request.uri, outcome, 1);
    if (this.#samples.length === SAMPLES) this.#samples.shift();
    this.#samples.push(sampleOf(line, outcome));
  }

  /**
   * `requests` lines alike but for their time (an ACL decides each alone, in any order): counted,
   * not sampled (`sample` takes the newest lines).
   */
  addAlike(line: Omit<PreviewLogLine, 'time_ms' | 'status'>, requests: number) {
    if (this.#plan.kind !== 'acl') throw new Error('only an ACL is replayed out of order');
    const request = edgeRequest(line);
    if (request.uri === null) return;
    const outcome = this.#acl(this.#plan.entries, request);
    if (outcome !== null) this.#count(line, request.uri, outcome, requests);
  }

  /** An ACL's samples, newest line first: false once it has enough. */
  sample(line: PreviewLogLine): boolean {
    if (this.#plan.kind !== 'acl') throw new Error('only an ACL is sampled apart');
    if (this.#samples.length >= SAMPLES) return false;
    const request = edgeRequest(line);
    const outcome = request.uri === null ? null : this.#acl(this.#plan.entries, request);
    // Kept oldest first, as `add` keeps them.
    if (outcome !== null) this.#samples.unshift(sampleOf(line, outcome));
    return this.#samples.length < SAMPLES;
  }

  #count(line: Omit<PreviewLogLine, 'time_ms' | 'status'>, path: string, outcome: PreviewOutcome, requests: number) {
    this.#matched += requests;
    this.#outcomes.set(outcome, (this.#outcomes.get(outcome) ?? 0) + requests);
    if (STOPPING.has(outcome)) {
      this.#stopped += requests;
      this.#stoppedAddresses.add(line.client_ip);
    }
    this.#addresses.add(line.client_ip, requests);
    this.#paths.add(shown(path), requests);
    this.#agents.add(line.user_agent, requests);
    this.#countries.add(line.country, requests);
  }

  #acl(entries: readonly AclStep[], request: ReturnType<typeof edgeRequest>): PreviewOutcome | null {
    for (const entry of entries) {
      if (entry.test?.(request)) return entry.allow ? 'allow' : 'block';
    }
    return null;
  }

  #lines(line: PreviewLogLine, request: ReturnType<typeof edgeRequest>): PreviewOutcome | null {
    if (this.#plan.kind !== 'lines') return null;
    const { lines, whitelisted } = this.#plan;
    const address = line.client_ip;
    // Whitelisted addresses are never challenged, rate limited or banned.
    if (whitelisted?.(address)) return null;
    const time = line.time_ms;
    const banned = (this.#bannedUntil.get(address) ?? 0) > time;
    let matched = false;
    let logged = false;
    for (const [index, rule] of lines.entries()) {
      if (!rule.test?.(request)) continue;
      matched = true;
      // A banned address is refused before any line runs (its counters stand still).
      if (banned) return 'ban';
      const failed = this.#filter(index, rule, address, request.uri ?? '', time);
      if (failed === null) continue;
      if (failed === 'delay') return 'delay';
      if (rule.action === 'log') {
        logged = true;
        continue;
      }
      if (failed === 'challenge') return 'challenge';
      if (rule.action === 'ban') {
        this.#bannedUntil.set(address, time + rule.banSeconds * 1000);
        return 'ban';
      }
      return 'block';
    }
    if (logged) return 'log';
    return matched ? 'pass' : null;
  }

  /** What the client fails: nothing (null), the rate, a delay, or a challenge (whether a client passed one is not in the log). */
  #filter(index: number, rule: PreviewLine, address: string, path: string, time: number) {
    const { filter } = rule;
    if (filter.type === 'delay') return 'delay';
    if (filter.type !== 'rate') return 'challenge';
    const windows = this.#windows[index] as Map<string, RateWindow>;
    const key = filter.per === 'ip_url' ? `${address} ${path}` : address;
    const seconds = (filter.seconds ?? 1) * 1000;
    let window = windows.get(key);
    if (!window || time >= window.start + seconds) {
      window = { start: time, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    if (window.count <= (filter.requests ?? 0)) return null;
    const crossing = this.#crossings.get(address);
    if (crossing) crossing.over++;
    else this.#crossings.set(address, { first: time, over: 1 });
    return 'rate';
  }

  tally(): PreviewTally {
    const crossings: PreviewRateCrossing[] = [...this.#crossings]
      .sort((a, b) => b[1].over - a[1].over || a[1].first - b[1].first)
      .slice(0, CROSSINGS)
      .map(([client_ip, { first, over }]) => ({
        client_ip,
        first_crossed_at: new Date(first).toISOString(),
        requests_over: over,
      }));
    return {
      matched: this.#matched,
      stopped: this.#stopped,
      stopped_addresses: this.#stoppedAddresses.size,
      outcomes: Object.fromEntries(this.#outcomes),
      addresses: this.#addresses.counts.size,
      top: {
        addresses: this.#addresses.top(TOP),
        paths: this.#paths.top(TOP),
        user_agents: this.#agents.top(TOP),
        countries: this.#countries.top(TOP),
      },
      samples: [...this.#samples].reverse(),
      rate_crossings: crossings,
    };
  }
}
