import { Activity, type ReactNode, useRef } from 'react';
import {
  type Location,
  UNSAFE_LocationContext as LocationContext,
  type NavigationType,
  useLocation,
  useMatches,
  useNavigationType,
  useOutlet,
} from 'react-router';
import { APP_CONFIG } from '../../app/config.ts';
import { deepestHandle } from '../../app/routeHandle.ts';
import { useTabs } from '../tabs/tabsStore.ts';
import { useReloads } from './reloadStore.ts';

interface KeptPage {
  element: ReactNode;
  location: Location;
  navigationType: NavigationType;
  reload: number;
}

/**
 * The page outlet. Pages whose route has `cache` stay mounted while their tab is open, hidden with
 * <Activity> so their state survives switching tabs (spec §4); each keeps the location it was
 * rendered for. Other pages are re-created only when their route changes, or for every new
 * fullPath when `sameRouteForceUpdate` is on. A reload re-creates the page either way.
 */
export const KeepAliveOutlet = () => {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const matches = useMatches();
  const openPaths = useTabs((state) => state.tabs.map((tab) => tab.fullPath).join('\n'));
  const reloads = useReloads((state) => state.counts);
  const kept = useRef(new Map<string, KeptPage>()).current;

  const fullPath = `${location.pathname}${location.search}`;
  const reload = reloads[fullPath] ?? 0;
  const cached = deepestHandle(matches)?.cache === true;
  const open = new Set(openPaths.split('\n'));

  // Bookkeeping during render keeps the kept pages and the visible page in one consistent pass.
  for (const [path, page] of kept) {
    if (!open.has(path) || page.reload !== (reloads[path] ?? 0)) kept.delete(path);
  }
  if (cached) kept.set(fullPath, { element: outlet, location, navigationType, reload });

  const routeKey = APP_CONFIG.sameRouteForceUpdate ? fullPath : (matches.at(-1)?.id ?? fullPath);
  return (
    <>
      {[...kept].map(([path, page]) => (
        <Activity key={`kept:${path}:${page.reload}`} mode={path === fullPath ? 'visible' : 'hidden'}>
          <LocationContext value={{ location: page.location, navigationType: page.navigationType }}>
            {page.element}
          </LocationContext>
        </Activity>
      ))}
      {!cached && <PageFrame key={`page:${routeKey}:${reload}`}>{outlet}</PageFrame>}
    </>
  );
};

const PageFrame = ({ children }: { children: ReactNode }) => children;
