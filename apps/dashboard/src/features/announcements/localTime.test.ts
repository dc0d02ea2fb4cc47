import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './localTime.ts';

describe('datetime-local values', () => {
  it('round-trip an instant to the minute', () => {
    const iso = new Date(2026, 10, 25, 9, 5).toISOString();
    expect(toLocalInput(iso)).toBe('2026-11-25T09:05');
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
  });

  it('answer undefined for an empty or broken value', () => {
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('not a time')).toBeUndefined();
  });
});
