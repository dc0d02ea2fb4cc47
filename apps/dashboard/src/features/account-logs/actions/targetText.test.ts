import { describe, expect, it } from 'vitest';
import { targetText } from './targetText.ts';

describe('operation targets', () => {
  it('read by name, falling back to the id where a name is missing or empty', () => {
    expect(targetText({ target_ids: ['7', '9', '12'], target_names: ['shop.example.com', ''] })).toBe(
      'shop.example.com, 9, 12',
    );
    expect(targetText({ target_ids: ['7'] })).toBe('7');
    expect(targetText({ target_ids: [], target_names: [] })).toBe('');
  });
});
