import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { cnameCheckText, cnameMissingText, cnameStateOf } from './cnameState.ts';

const t = ((key: string, options?: Record<string, unknown>) =>
  options ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;

describe('cnameStateOf', () => {
  it('is ready when the site has a target, whatever else the row says', () => {
    expect(cnameStateOf({ cname: 'a1.cdn.example.net' })).toBe('ready');
    expect(cnameStateOf({ cname: 'a1.cdn.example.net', cname_state: 'ready' })).toBe('ready');
  });
  it('names the missing piece, and reads an empty target without a reason as no CNAME domain', () => {
    expect(cnameStateOf({ cname: '', cname_state: 'no_line_group' })).toBe('no_line_group');
    expect(cnameStateOf({ cname: '', cname_state: 'no_cname_domain' })).toBe('no_cname_domain');
    expect(cnameStateOf({ cname: '' })).toBe('no_cname_domain');
  });
});

describe('cname texts', () => {
  it('says plainly that the operator has not set up a CNAME domain', () => {
    expect(cnameMissingText(t, 'no_cname_domain')).toBe('sites.cname.notSetUp');
    expect(cnameMissingText(t, 'no_line_group')).toBe('sites.cname.noLineGroup');
  });
  it('words each domain of the live check', () => {
    expect(cnameCheckText(t, undefined)).toBe('sites.guide.unchecked');
    expect(cnameCheckText(t, { points: true, cname: 'x.example.net' })).toBe('sites.guide.points');
    expect(cnameCheckText(t, { points: false, cname: null })).toBe('sites.guide.noRecord');
    expect(cnameCheckText(t, { points: false, cname: 'old.example.net' })).toBe(
      'sites.guide.pointsElsewhere {"cname":"old.example.net"}',
    );
  });
});
