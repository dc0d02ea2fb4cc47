import type { User } from '@rampart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
import { canVisit } from '../../app/access.ts';
import { stripBasename } from '../../app/navigation.ts';
import { CONSOLE_PREFETCH } from '../../app/prefetch.ts';
import { handleForPath } from '../../app/routeCatalog.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

/**
 * Starts the data of the page being navigated to while its code loads, whatever started the
 * navigation (menu, tabs, links, history). Renders nothing.
 */
export const NavigationPrefetch = ({ user }: { user: User }) => {
  const pathname = useNavigation().location?.pathname;
  const http = useHttp();
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  const language = i18n.language;
  useEffect(() => {
    if (!pathname) return;
    // The router's pending location still has the base path, which useLocation strips.
    const handle = handleForPath(stripBasename(pathname));
    const prefetch = handle?.name ? CONSOLE_PREFETCH[handle.name] : undefined;
    if (prefetch && canVisit(user, handle?.gates ?? [])) void prefetch({ http, queryClient, language });
  }, [pathname, user, http, queryClient, language]);
  return null;
};
