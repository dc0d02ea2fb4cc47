import type { User } from '@rampart/contracts';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useMatches } from 'react-router';
import { canVisit } from '../../app/access.ts';
import { APP_CONFIG } from '../../app/config.ts';
import { deepestHandle } from '../../app/routeHandle.ts';
import { forbiddenReason } from '../../features/errors/forbiddenReason.ts';
import { readImpersonation } from '../../features/users/impersonation.ts';
import { useDevice } from '../device/useDevice.ts';
import { Header } from '../header/Header.tsx';
import { siderItems } from '../menu/menuModel.ts';
import { useMenus } from '../menu/menusApi.ts';
import { effectiveSettings } from '../settings/layoutSettings.ts';
import { useSettings } from '../settings/settingsStore.ts';
import { Sider } from '../sider/Sider.tsx';
import { useTabSync } from '../tabs/useTabSync.ts';
import { WatermarkLayer } from '../watermark/WatermarkLayer.tsx';
import { Footer } from './Footer.tsx';
import { KeepAliveOutlet } from './KeepAliveOutlet.tsx';
import { NavigationPrefetch } from './NavigationPrefetch.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import { useReloads } from './reloadStore.ts';
import { useDeviceCollapse } from './useDeviceCollapse.ts';
import { useHideOnScroll } from './useHideOnScroll.ts';

// Parts most sessions never open load when they are first needed.
const TabBar = lazy(async () => ({ default: (await import('../tabs/TabBar.tsx')).TabBar }));
const SettingsDrawer = lazy(async () => ({ default: (await import('../settings/SettingsDrawer.tsx')).SettingsDrawer }));
const ForbiddenPage = lazy(async () => ({
  default: (await import('../../features/errors/ErrorPages.tsx')).ForbiddenPage,
}));
const MobileMenu = lazy(async () => ({ default: (await import('../sider/MobileMenu.tsx')).MobileMenu }));
const ImpersonationBanner = lazy(async () => ({
  default: (await import('../../features/users/ImpersonationBanner.tsx')).ImpersonationBanner,
}));

/** The console chrome of spec §2 around the current page. */
export const Shell = ({ user }: { user: User }) => {
  const device = useDevice();
  const settings = effectiveSettings(useSettings((state) => state.layout));
  const toggleCollapse = () => useSettings.getState().set('menuCollapse', !settings.menuCollapse);
  const watermark = useSettings((state) => state.watermark);
  const menus = useMenus();
  const location = useLocation();
  const handle = deepestHandle(useMatches());
  const [drawer, setDrawer] = useState<'settings' | 'menu' | null>(null);
  useTabSync(user);
  useDeviceCollapse(device, settings.showSiderCollapse);
  const headerVisible = useHideOnScroll(settings.headerFix && settings.headerHide);

  const mobile = device === 'mobile';
  const items = siderItems(menus, settings.headerMenu && !mobile, location.pathname);
  const hasSider = !mobile && items.length > 0;
  const stick = settings.headerStick || !hasSider;
  const collapsed = hasSider && settings.menuCollapse;
  const reload = () => useReloads.getState().reload(`${location.pathname}${location.search}`);
  const header = (
    <Header
      {...{ user, menus, settings, device, stick, hasSider, collapsed }}
      visible={headerVisible}
      onToggleCollapse={toggleCollapse}
      onOpenMobileMenu={() => setDrawer('menu')}
      onReload={reload}
      onOpenSettings={() => setDrawer('settings')}
    />
  );

  return (
    <div
      className="rp-console"
      data-device={device}
      data-stick={stick}
      data-header-fixed={settings.headerFix}
      data-header-hidden={!headerVisible}
    >
      <NavigationPrefetch user={user} />
      {APP_CONFIG.showProgressBar && <ProgressBar />}
      {stick && header}
      <div className="rp-body">
        {hasSider && <Sider user={user} items={items} settings={settings} collapsed={collapsed} withLogo={!stick} />}
        <div className="rp-main">
          {!stick && header}
          {settings.tabs && (
            <Suspense fallback={<div className="rp-tabs" />}>
              <TabBar settings={settings} />
            </Suspense>
          )}
          {readImpersonation() && (
            <Suspense fallback={null}>
              <ImpersonationBanner />
            </Suspense>
          )}
          <main className="rp-content" data-testid="page-content">
            {canVisit(user, handle?.gates ?? []) ? (
              <KeepAliveOutlet />
            ) : (
              <Suspense fallback={null}>
                <ForbiddenPage reason={forbiddenReason(user, handle?.gates ?? [])} />
              </Suspense>
            )}
          </main>
          <Footer />
        </div>
      </div>
      {watermark && <WatermarkLayer />}
      <Suspense fallback={null}>
        {drawer === 'settings' && <SettingsDrawer onClose={() => setDrawer(null)} />}
        {drawer === 'menu' && mobile && (
          <MobileMenu user={user} items={menus.sider} settings={settings} onClose={() => setDrawer(null)} />
        )}
      </Suspense>
    </div>
  );
};
