import type { BlockKind } from '@rampart/contracts';

export const BLOCK_KINDS: readonly BlockKind[] = [
  'acl',
  'ban',
  'rate',
  'challenge',
  'delay',
  'waf',
  'hotlink',
  'urlauth',
];

/** A kind the dashboard names; the master sends '' for a reason it could not take apart. */
export const knownKind = (kind: string): BlockKind | undefined => BLOCK_KINDS.find((known) => known === kind);

/** A bound of the block log's time range, as ISO 8601 in UTC (whole seconds). */
export const isoTime = (time: { valueOf(): number } | null | undefined): string | undefined =>
  time ? new Date(Math.floor(time.valueOf() / 1000) * 1000).toISOString().replace('.000Z', 'Z') : undefined;

/** "group 3 · match 7 · filter 2": the rule that acted, where there was one. */
export const ruleIds = (entry: { group: number; match: number; filter: number }): string =>
  (['group', 'match', 'filter'] as const)
    .filter((key) => entry[key] > 0)
    .map((key) => `${key} ${entry[key]}`)
    .join(' · ');
