import { useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { aclKey, fetchAcl, saveAcl } from '../api.ts';
import { withAllowFirst } from '../model/acl.ts';

/** "Allow this IP": an allow entry at the top of the site's ACL, which is created when the site has none. */
export const useAllowIp = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return async (siteId: number, ip: string): Promise<void> => {
    const acl = await fetchAcl(http, siteId);
    await saveAcl(http, siteId, acl, withAllowFirst(acl?.entries ?? [], ip));
    await queryClient.invalidateQueries({ queryKey: aclKey(siteId) });
  };
};
