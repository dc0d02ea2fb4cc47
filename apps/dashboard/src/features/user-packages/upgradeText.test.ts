import { describe, expect, it } from 'vitest';
import { addsText, packsFor } from './upgradeText.ts';

describe('addsText', () => {
  it('names the unit of traffic and bandwidth, and none for counts', () => {
    expect(addsText('traffic_gb', 100)).toBe('+100 GB');
    expect(addsText('bandwidth_mbps', 20)).toBe('+20 Mbps');
    expect(addsText('max_sites', 5)).toBe('+5');
  });
});

describe('packsFor', () => {
  it('keeps the packs for every package and those naming this one', () => {
    const packs = [
      { id: 1, package_ids: [] },
      { id: 2, package_ids: [7] },
      { id: 3, package_ids: [8, 9] },
    ];
    expect(packsFor(packs, 7).map((pack) => pack.id)).toEqual([1, 2]);
    expect(packsFor(packs, 9).map((pack) => pack.id)).toEqual([1, 3]);
  });
});
