/** The unit each upgrade kind adds, for "+10 GB"; counts have none. */
const UNITS: Record<string, string> = { traffic_gb: ' GB', bandwidth_mbps: ' Mbps' };

/** What `count` of a kind adds, as shown beside its name: "+10 GB", "+5". */
export const addsText = (kind: string, count: number): string => `+${count}${UNITS[kind] ?? ''}`;

/** The upgrade packs that apply to a package: those for every package and those naming it. */
export const packsFor = <P extends { package_ids: number[] }>(packs: readonly P[], packageId: number): P[] =>
  packs.filter((pack) => pack.package_ids.length === 0 || pack.package_ids.includes(packageId));
