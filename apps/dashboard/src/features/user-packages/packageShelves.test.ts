import type { PackageGroupView, PackageView } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { groupPackages } from './packageShelves.ts';

const group = (id: number, name: string): PackageGroupView => ({
  id,
  name,
  sort: id,
  description: '',
  package_count: 0,
});
const pkg = (id: number, group_id: number | null) => ({ id, name: `p${id}`, group_id }) as PackageView;

describe('groupPackages', () => {
  it("keeps the groups' order and each group's packages in the order they came", () => {
    const shelves = groupPackages([group(2, 'Pro'), group(1, 'Basic')], [pkg(10, 1), pkg(11, 2), pkg(12, 1)]);
    expect(shelves.map((shelf) => [shelf.name, shelf.packages.map((entry) => entry.id)])).toEqual([
      ['Pro', [11]],
      ['Basic', [10, 12]],
    ]);
  });

  it('puts packages without a known group last and leaves empty groups out', () => {
    const shelves = groupPackages([group(1, 'Basic'), group(3, 'Empty')], [pkg(10, null), pkg(11, 9), pkg(12, 1)]);
    expect(shelves.map((shelf) => [shelf.name, shelf.packages.map((entry) => entry.id)])).toEqual([
      ['Basic', [12]],
      [null, [10, 11]],
    ]);
  });
});
