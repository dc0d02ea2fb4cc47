/** Work a route starts and answers before it ends; the master's close aborts it and waits for it. */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();
  private readonly controller = new AbortController();

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  run(work: (signal: AbortSignal) => Promise<void>, onError: (error: unknown) => void): void {
    const job = work(this.controller.signal)
      .catch(onError)
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled([...this.running]);
  }
}

/** Resolves after `ms` or at once on abort. */
export function pauseFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
