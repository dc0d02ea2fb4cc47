import { DEFAULT_SITE_PROTECTION, type Site } from '@rampart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { saveSiteProtection } from '../api.ts';
import { withExclusions } from '../model/waf.ts';

/**
 * "Skip these rules on this site": the WAF rule ids of a block log entry join the site's exclusions
 * (the answer to a false positive). False when the site already skips as many rules as it may.
 */
export const useSkipWafRules = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return async (siteId: number, ids: readonly number[]): Promise<boolean> => {
    const site = await http.get<Site>(`/v1/sites/${siteId}`);
    const protection = { ...DEFAULT_SITE_PROTECTION, ...site.protection };
    const exclusions = withExclusions(protection.waf.exclusions, ids);
    if (!exclusions) return false;
    await saveSiteProtection(http, siteId, { ...protection, waf: { ...protection.waf, exclusions } });
    await queryClient.invalidateQueries({ queryKey: ['sites'] });
    return true;
  };
};
