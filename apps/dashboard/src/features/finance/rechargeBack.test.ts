import { describe, expect, it } from 'vitest';
import { backTarget, rechargeHref } from './rechargeBack.ts';

describe('recharge and back', () => {
  it('carries the page the customer came from', () => {
    const href = rechargeHref('/user-package/buy?group=2');
    expect(href).toBe('/account/balance?back=%2Fuser-package%2Fbuy%3Fgroup%3D2');
    expect(backTarget(href.slice(href.indexOf('?')))).toBe('/user-package/buy?group=2');
  });

  it('never leads out of the app', () => {
    expect(backTarget('?back=https://evil.example/')).toBeUndefined();
    expect(backTarget('?back=//evil.example/')).toBeUndefined();
    expect(backTarget('?back=/\\evil.example')).toBeUndefined();
    expect(backTarget('')).toBeUndefined();
    expect(rechargeHref('/account/balance')).toBe('/account/balance');
  });
});
