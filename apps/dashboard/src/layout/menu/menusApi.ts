import { buildMenus, type Menus } from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { APP_CONFIG } from '../../app/config.ts';
import { isApiError } from '../../shared/http/apiError.ts';
import { LOGIN_REQUIRED } from '../../shared/http/envelope.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useSession } from '../../shared/session/session.ts';
import { EMPTY_MENUS, visibleItems } from './menuModel.ts';

/**
 * The header and sider menus: from GET /v1/common/menu2 (spec §7), or built here from the route
 * records when dynamic menus are off. A `login_required` answer yields an empty menu (spec §8).
 */
export const useMenus = (): Menus => {
  const http = useHttp();
  const user = useSession((state) => state.user);
  const { data } = useQuery({
    queryKey: ['common', 'menu2', user?.id],
    enabled: user !== null,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<Menus> => {
      if (!APP_CONFIG.dynamicMenu && user) return buildMenus(user);
      try {
        return await http.get<Menus>('/v1/common/menu2', { loginRequired: 'reject' });
      } catch (error) {
        if (isApiError(error) && error.code === LOGIN_REQUIRED) return EMPTY_MENUS;
        throw error;
      }
    },
  });
  const access = user?.access;
  return useMemo(() => {
    const menus = data ?? EMPTY_MENUS;
    return { header: visibleItems(menus.header, access ?? []), sider: visibleItems(menus.sider, access ?? []) };
  }, [data, access]);
};
