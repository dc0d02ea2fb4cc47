import { describe, expect, it } from 'vitest';
import { Backoff, pause } from './backoff.ts';

describe('Backoff', () => {
  it('grows exponentially up to the cap, with jitter below the ceiling', () => {
    const top = new Backoff(100, 1000, () => 0.999);
    expect([1, 2, 3, 4, 5, 6].map(() => top.next())).toEqual([99, 199, 399, 799, 999, 999]);
    const bottom = new Backoff(100, 1000, () => 0);
    expect(bottom.next()).toBe(50);
  });

  it('starts over after a success', () => {
    const backoff = new Backoff(100, 1000, () => 0.999);
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(99);
  });

  it('pause ends early when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    // Without the abort this pause outlives the test's timeout, so the test fails rather than waits.
    await pause(3_600_000, controller.signal);
    expect(controller.signal.aborted).toBe(true);
  });
});
