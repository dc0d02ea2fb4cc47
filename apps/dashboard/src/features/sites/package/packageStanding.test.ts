import { describe, expect, it } from 'vitest';
import { isPackageRequired, needsPackage, type PackageStanding } from './packageStanding.ts';

const standing = (change: Partial<PackageStanding>): PackageStanding => ({
  required: true,
  exempt: false,
  unlimited: false,
  active: 0,
  unattached: { sites: 0, streams: 0 },
  ...change,
});

describe('needsPackage', () => {
  it('asks for a package when one is required and none is active', () => {
    expect(needsPackage(standing({}))).toBe(true);
  });
  it('stays quiet with an active package, an exemption, an unlimited account or no requirement', () => {
    expect(needsPackage(standing({ active: 1 }))).toBe(false);
    expect(needsPackage(standing({ exempt: true }))).toBe(false);
    expect(needsPackage(standing({ unlimited: true }))).toBe(false);
    expect(needsPackage(standing({ required: false }))).toBe(false);
    expect(needsPackage(undefined)).toBe(false);
  });
  it('recognises the refusal of a create call', () => {
    expect(isPackageRequired({ code: 'package_required' })).toBe(true);
    expect(isPackageRequired({ code: 'limit_reached' })).toBe(false);
  });
});
