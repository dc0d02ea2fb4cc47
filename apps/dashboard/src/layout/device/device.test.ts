import { describe, expect, it } from 'vitest';
import { deviceForWidth } from './useDevice.ts';

describe('device class', () => {
  it('is mobile up to 600 px, tablet up to 992 px, desktop above', () => {
    expect([320, 600, 601, 992, 993, 1280].map(deviceForWidth)).toEqual([
      'mobile',
      'mobile',
      'tablet',
      'tablet',
      'desktop',
      'desktop',
    ]);
  });
});
