import type { PackageView, UserPackageView } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { packagesCarryNoLimits, usageBanners } from './banners.ts';

const pkg = (id: number, change: Partial<PackageView> = {}) =>
  ({ id, on_sale: true, billing: 'traffic', ...change }) as PackageView;
const owned = (packageId: number, state = 'active') => ({ package_id: packageId, state }) as UserPackageView;

describe('usage banners', () => {
  it('says packages are not available only while none is on sale', () => {
    expect(usageBanners([], []).noPackages).toBe(true);
    expect(usageBanners([pkg(1, { on_sale: false })], []).noPackages).toBe(true);
    expect(usageBanners([pkg(1)], []).noPackages).toBe(false);
    expect(usageBanners(undefined, undefined).noPackages).toBe(false);
  });
  it('speaks of the 95th percentile only for an active package billed that way', () => {
    const packages = [pkg(1), pkg(2, { billing: 'bandwidth95' })];
    expect(usageBanners(packages, [owned(1)]).percentileBilling).toBe(false);
    expect(usageBanners(packages, [owned(2)]).percentileBilling).toBe(true);
    expect(usageBanners(packages, [owned(2, 'expired')]).percentileBilling).toBe(false);
    expect(usageBanners(packages, []).percentileBilling).toBe(false);
  });
  it('says packages carry no limits only while there is no package', () => {
    expect(packagesCarryNoLimits([])).toBe(true);
    expect(packagesCarryNoLimits([pkg(1)])).toBe(false);
    expect(packagesCarryNoLimits(undefined)).toBe(false);
  });
});
