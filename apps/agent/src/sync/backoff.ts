/**
 * Exponential backoff with full jitter: the n-th consecutive failure waits a random time up to
 * min(max, base * 2^n), so a fleet of agents does not hammer a master that comes back.
 */
export class Backoff {
  private failures = 0;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly random: () => number;

  constructor(baseMs = 500, maxMs = 30_000, random: () => number = Math.random) {
    this.baseMs = baseMs;
    this.maxMs = maxMs;
    this.random = random;
  }

  /** The delay before the next attempt after one more failure. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    return Math.max(this.baseMs / 2, Math.floor(this.random() * ceiling));
  }

  reset(): void {
    this.failures = 0;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
