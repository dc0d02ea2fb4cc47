import { describe, expect, it } from 'vitest';
import { validExtension } from './SoldBatchBar.tsx';

describe('the batch extension', () => {
  it('takes a whole number of days from -3650 to 3650 other than 0', () => {
    for (const days of [1, 30, -7, 3650, -3650]) expect(validExtension(days)).toBe(true);
    for (const days of [0, 3651, -3651, 1.5, null]) expect(validExtension(days)).toBe(false);
  });
});
