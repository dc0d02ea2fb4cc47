import type { User } from '@rampart/contracts';
import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router';
import { canVisit } from '../../app/access.ts';
import { handleForPath } from '../../app/routeCatalog.ts';
import { deepestHandle, type RouteHandle } from '../../app/routeHandle.ts';
import { landingPath } from '../../shared/session/session.ts';
import type { OpenedTab } from './tabModel.ts';
import { useTabs } from './tabsStore.ts';

const pathOnly = (fullPath: string) => fullPath.split(/[?#]/)[0] ?? fullPath;

/** A saved tab comes back only if its route is known, opens tabs, and the user may visit it (spec §4). */
export const isRestorable = (tab: OpenedTab, user: Pick<User, 'type' | 'access'>): boolean => {
  const handle = handleForPath(pathOnly(tab.fullPath));
  return handle !== undefined && handle.tabs !== false && canVisit(user, handle.gates ?? []);
};

const tabFor = (
  handle: RouteHandle,
  fullPath: string,
  params: Record<string, string | undefined>,
  search: string,
  closable: boolean,
): OpenedTab => ({
  name: handle.name ?? fullPath,
  fullPath,
  params: Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ),
  query: Object.fromEntries(new URLSearchParams(search)),
  meta: { title: handle.title, closable, cache: handle.cache === true, ...(handle.icon && { icon: handle.icon }) },
});

/** Loads the user's tabs, then opens (or updates) a tab for every page visited (spec §2, §4). */
export const useTabSync = (user: User) => {
  const location = useLocation();
  const matches = useMatches();
  const { id, type, access } = user;
  const home = landingPath(user);
  // The session check replaces the user object with an equal one; restore only when these change.
  const accessKey = access.join(' ');

  useEffect(() => {
    const handle = handleForPath(home);
    if (!handle) return;
    const viewer = { type, access: accessKey ? accessKey.split(' ') : [] };
    useTabs.getState().start(String(id), tabFor(handle, home, {}, '', false), (tab) => isRestorable(tab, viewer));
    return () => useTabs.getState().stop();
  }, [id, type, accessKey, home]);

  const fullPath = `${location.pathname}${location.search}`;
  useEffect(() => {
    const handle = deepestHandle(matches);
    // A refused page opens its tab too, so the tab bar names the page the 403 explains (it is not restored).
    if (!handle || handle.tabs === false) return;
    const params = matches.at(-1)?.params ?? {};
    useTabs.getState().open(tabFor(handle, fullPath, params, location.search, fullPath !== home));
  }, [fullPath, matches, home, location.search]);
};
