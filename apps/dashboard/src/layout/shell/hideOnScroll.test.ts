import { describe, expect, it } from 'vitest';
import { headerVisibleAfterScroll } from './useHideOnScroll.ts';

describe('header hide on scroll', () => {
  it('hides on scrolling down past 300 px and shows on scrolling up', () => {
    expect(headerVisibleAfterScroll(true, 100, 300)).toBe(true);
    expect(headerVisibleAfterScroll(true, 300, 301)).toBe(false);
    expect(headerVisibleAfterScroll(false, 800, 900)).toBe(false);
    expect(headerVisibleAfterScroll(false, 900, 850)).toBe(true);
    expect(headerVisibleAfterScroll(false, 50, 0)).toBe(true);
  });
});
