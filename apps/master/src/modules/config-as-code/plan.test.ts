import { describe, expect, it } from 'vitest';
import { documentPath } from './document.ts';
import { fieldChanges } from './plan.ts';

describe('field changes of a plan', () => {
  it('names each changed leaf by its path, element by element in lists of one length', () => {
    const from = { settings: { gzip: true, cache_rules: [{ ttl: 600, value: '/a' }], origins: [{ port: 80 }] } };
    const to = { settings: { gzip: false, cache_rules: [{ ttl: 3600, value: '/a' }], origins: [{ port: 80 }] } };
    expect(fieldChanges(from, to)).toEqual([
      { path: 'settings.gzip', from: true, to: false },
      { path: 'settings.cache_rules[0].ttl', from: 600, to: 3600 },
    ]);
  });

  it('gives a list that grows or shrinks as one field', () => {
    expect(fieldChanges({ domains: ['a.test'] }, { domains: ['a.test', 'b.test'] })).toEqual([
      { path: 'domains', from: ['a.test'], to: ['a.test', 'b.test'] },
    ]);
  });

  it('keeps what the document leaves out only at the levels named partial, not inside lists', () => {
    const from = { settings: { gzip: true, hsts: true, origins: [{ port: 80, backup: true }] } };
    const to = { settings: { gzip: true, origins: [{ port: 80 }] } };
    expect(fieldChanges(from, to, '', new Set(['', 'settings']))).toEqual([
      { path: 'settings.origins[0].backup', from: true, to: null },
    ]);
    expect(fieldChanges(from, to)).toEqual([
      { path: 'settings.hsts', from: true, to: null },
      { path: 'settings.origins[0].backup', from: true, to: null },
    ]);
  });

  it('sees no change in the order of an object’s keys', () => {
    expect(fieldChanges({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toEqual([]);
  });

  it('writes a JSON pointer as the document’s path', () => {
    expect(documentPath('/sites/2/settings/cache_rules/0/ttl')).toBe('sites[2].settings.cache_rules[0].ttl');
    expect(documentPath('/configs/global-0-a~1b/x')).toBe('configs.global-0-a/b.x');
    expect(documentPath('')).toBe('');
  });
});
