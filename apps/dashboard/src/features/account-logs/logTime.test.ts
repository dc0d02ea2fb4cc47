import { describe, expect, it } from 'vitest';
import { changesText, formatLogTime, queryTime } from './logTime.ts';

describe('log times and changes', () => {
  it('shows a dash for a missing time and the text of an unreadable one', () => {
    expect(formatLogTime(null, 'en-US')).toBe('—');
    expect(formatLogTime('soon', 'en-US')).toBe('soon');
    expect(formatLogTime('2026-11-23T10:00:00.000Z', 'en-US')).toContain('2026');
  });

  it('sends picked times as ISO text and nothing for a cleared picker', () => {
    expect(queryTime(new Date('2026-11-23T10:00:00Z'))).toBe('2026-11-23T10:00:00.000Z');
    expect(queryTime(null)).toBeUndefined();
  });

  it('indents the changes and shows a dash for a write without a body', () => {
    expect(changesText({ password: '******' })).toBe('{\n  "password": "******"\n}');
    expect(changesText(null)).toBe('—');
  });
});
