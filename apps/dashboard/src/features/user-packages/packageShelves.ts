import type { PackageGroupView, PackageView } from '@rampart/contracts';

/** One group of the buy page with its packages; a package in no group (or a hidden one) goes under `name: null`. */
export interface PackageShelf {
  key: string;
  name: string | null;
  description: string;
  packages: PackageView[];
}

/** The packages by group in the groups' order (as the server sorts them); empty groups are left out. */
export const groupPackages = (
  groups: readonly PackageGroupView[],
  packages: readonly PackageView[],
): PackageShelf[] => {
  const shelves: PackageShelf[] = groups.map((group) => ({
    key: `group:${group.id}`,
    name: group.name,
    description: group.description,
    packages: packages.filter((pkg) => pkg.group_id === group.id),
  }));
  const known = new Set(groups.map((group) => group.id));
  const rest = packages.filter((pkg) => pkg.group_id === null || !known.has(pkg.group_id));
  if (rest.length > 0) shelves.push({ key: 'other', name: null, description: '', packages: rest });
  return shelves.filter((shelf) => shelf.packages.length > 0);
};
