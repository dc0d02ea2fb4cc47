import { describe, expect, it } from 'vitest';
import { GATED, type Gated, instructionGate } from './perf-check.ts';

const counts = (value: number) => Object.fromEntries(GATED.map((name) => [name, value])) as Record<Gated, number>;
const baseline = { reason: 'test', instructions: counts(10_000) };

describe('the performance gate', () => {
  it('passes a count up to 10 % over its baseline and fails one past it', () => {
    expect(instructionGate(counts(11_000), baseline).every((line) => line.ok)).toBe(true);
    const over = { ...counts(10_000), cacheHit: 11_001 };
    const failed = instructionGate(over, baseline).filter((line) => !line.ok);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.label).toContain('cache hit, 4 KiB, site without protection');
  });

  it('passes a count well under its baseline and says the baseline should come down', () => {
    const lines = instructionGate({ ...counts(10_000), proxy: 8_000 }, baseline);
    expect(lines.every((line) => line.ok)).toBe(true);
    expect(lines.filter((line) => line.limit.includes('lower the baseline')).map((line) => line.label)).toEqual([
      expect.stringContaining('proxied request'),
    ]);
  });

  it('gates every figure the baseline names', () => {
    expect(instructionGate(counts(1), baseline).map((line) => line.label)).toHaveLength(GATED.length);
  });
});
