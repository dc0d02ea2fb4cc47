import './shellSkeleton.css';
import { useTranslation } from 'react-i18next';
import { BASE_PATH } from '../../app/basePath.ts';
import { useDevice } from '../device/useDevice.ts';
import { effectiveSettings } from '../settings/layoutSettings.ts';
import { useSettings } from '../settings/settingsStore.ts';
import { SIDER_COLLAPSED_WIDTH, SIDER_WIDTH } from '../sider/siderWidth.ts';
import { deviceCollapse } from './useDeviceCollapse.ts';

const SkeletonLogo = ({ compact, width }: { compact: boolean; width?: number }) => {
  const { t } = useTranslation();
  return (
    <div className="rp-skeleton-logo" style={width === undefined ? undefined : { width }}>
      <img src={`${BASE_PATH}favicon.svg`} alt="" width={28} height={28} />
      {!compact && <span>{t('common.appName')}</span>}
    </div>
  );
};

/** Placeholder bars, each as wide as its percentage (which also keys it). */
const Bars = ({ widths, className }: { widths: readonly number[]; className: string }) =>
  widths.map((width) => <div key={width} className={className} style={{ width: `${width}%` }} />);

const MENU_WIDTHS = [52, 60, 44, 56, 48, 64];
const LINE_WIDTHS = [100, 96, 92, 60];

/**
 * The console chrome as it will be laid out (header, sider, tab bar, from the stored layout
 * settings) with placeholders for the menu and the page: drawn by the framework chunk while the
 * console's code and the session check are on their way, so the frame shows before them.
 */
export const ShellSkeleton = () => {
  const { t } = useTranslation();
  const device = useDevice();
  const settings = effectiveSettings(useSettings((state) => state.layout));
  const mobile = device === 'mobile';
  // The menus are not known yet: every desktop and tablet console starts with a sider.
  const hasSider = !mobile;
  const stick = settings.headerStick || !hasSider;
  // As the shell will start: the device class may override the stored state (useDeviceCollapse).
  const collapsed = hasSider && (deviceCollapse(device, settings.showSiderCollapse) ?? settings.menuCollapse);
  const siderWidth = collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH;
  const header = (
    <div className="rp-skeleton-header" data-theme={settings.headerTheme} aria-hidden>
      {(mobile ? settings.showMobileLogo : stick) && (
        <SkeletonLogo compact={mobile || collapsed} width={hasSider ? siderWidth : undefined} />
      )}
    </div>
  );
  return (
    <div className="rp-skeleton" data-testid="shell-skeleton">
      {stick && header}
      <div className="rp-skeleton-body">
        {hasSider && (
          <div className="rp-skeleton-sider" data-theme={settings.siderTheme} style={{ width: siderWidth }} aria-hidden>
            {!stick && <SkeletonLogo compact={collapsed} />}
            <div className="rp-skeleton-menu">
              <Bars widths={MENU_WIDTHS} className="rp-skeleton-menu-item" />
            </div>
          </div>
        )}
        <div className="rp-skeleton-main">
          {!stick && header}
          {settings.tabs && <div className="rp-skeleton-tabs" />}
          <div className="rp-skeleton-content" role="progressbar" aria-label={t('common.loading')}>
            <div className="rp-skeleton-title" />
            <Bars widths={LINE_WIDTHS} className="rp-skeleton-line" />
          </div>
        </div>
      </div>
    </div>
  );
};
