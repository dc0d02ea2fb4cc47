import type { Site } from '@rampart/contracts';
import type { TFunction } from 'i18next';

/** Why a site has no CNAME target, as the master says it (`cname_state`), or from an empty `cname`. */
export type CnameState = 'ready' | 'no_cname_domain' | 'no_line_group';

export const cnameStateOf = (site: Pick<Site, 'cname'> & { cname_state?: string }): CnameState => {
  if (site.cname) return 'ready';
  return site.cname_state === 'no_line_group' ? 'no_line_group' : 'no_cname_domain';
};

/** The CNAME column's text where there is no target: what is missing, in words. */
export const cnameMissingText = (t: TFunction, state: CnameState): string =>
  state === 'no_line_group' ? t('sites.cname.noLineGroup') : t('sites.cname.notSetUp');

/** One domain's answer of the live check, in the user's words. */
export const cnameCheckText = (t: TFunction, entry: { points: boolean; cname: string | null } | undefined): string => {
  if (!entry) return t('sites.guide.unchecked');
  if (entry.points) return t('sites.guide.points');
  return entry.cname ? t('sites.guide.pointsElsewhere', { cname: entry.cname }) : t('sites.guide.noRecord');
};
