import { describe, expect, it } from 'vitest';
import { breadcrumbFits } from './HeaderBreadcrumb.tsx';

describe('breadcrumb width rule', () => {
  it('hides the breadcrumb when the header width minus 560 is not larger than its own width', () => {
    expect(breadcrumbFits(1024, 200)).toBe(true);
    expect(breadcrumbFits(760, 200)).toBe(false);
    expect(breadcrumbFits(761, 200)).toBe(true);
  });
});
