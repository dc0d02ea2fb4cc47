import { describe, expect, it } from 'vitest';
import { hasAccess } from './permissions.ts';

describe('hasAccess', () => {
  it('lets anyone through when nothing is required', () => {
    expect(hasAccess([], undefined)).toBe(true);
    expect(hasAccess([], [])).toBe(true);
  });

  it('needs at least one of the required entries', () => {
    expect(hasAccess(['admin:node'], ['admin:sys', 'admin:node'])).toBe(true);
    expect(hasAccess(['admin:node'], ['admin:sys'])).toBe(false);
  });

  it('shows a user with an empty access list only what needs no entry', () => {
    expect(hasAccess([], ['admin:sys'])).toBe(false);
  });
});
