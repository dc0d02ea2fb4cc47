import type { PackageView, UserPackageView } from '@rampart/contracts';

/** The usage page's notes, each shown only while it holds; nothing is said until the data is in. */
export interface UsageBanners {
  /** No package is on sale: the figures are plain usage, not a package's. */
  noPackages: boolean;
  /** One of the user's active packages bills by the month's 95th percentile. */
  percentileBilling: boolean;
}

export const usageBanners = (
  packages: readonly PackageView[] | undefined,
  mine: readonly UserPackageView[] | undefined,
): UsageBanners => ({
  noPackages: packages !== undefined && !packages.some((pkg) => pkg.on_sale),
  percentileBilling:
    packages !== undefined &&
    (mine ?? []).some(
      (owned) =>
        owned.state === 'active' && packages.find((pkg) => pkg.id === owned.package_id)?.billing === 'bandwidth95',
    ),
});

/** The package monitor's "no limits yet" holds only while no package exists: every package caps sites and streams. */
export const packagesCarryNoLimits = (packages: readonly PackageView[] | undefined): boolean =>
  packages !== undefined && packages.length === 0;
