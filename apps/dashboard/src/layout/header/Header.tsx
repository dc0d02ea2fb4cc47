import MenuFoldOutlined from '@ant-design/icons/MenuFoldOutlined';
import MenuOutlined from '@ant-design/icons/MenuOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/MenuUnfoldOutlined';
import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import type { Menus, User } from '@rampart/contracts';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Device } from '../device/useDevice.ts';
import type { LayoutSettings } from '../settings/layoutSettings.ts';
import { SIDER_COLLAPSED_WIDTH, SIDER_WIDTH } from '../sider/siderWidth.ts';
import { FullscreenButton } from './FullscreenButton.tsx';
import { HeaderBreadcrumb } from './HeaderBreadcrumb.tsx';
import { HeaderButton } from './HeaderButton.tsx';
import { HeaderMenu } from './HeaderMenu.tsx';
import { HeaderSearch } from './HeaderSearch.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';
import { LogBadge } from './LogBadge.tsx';
import { Logo } from './Logo.tsx';
import { NoticeButton } from './NoticeButton.tsx';
import { UserMenu } from './UserMenu.tsx';

/** Spec §9: the header is 64 px high. */
export const HEADER_HEIGHT = 64;

export interface HeaderProps {
  user: User;
  menus: Menus;
  settings: LayoutSettings;
  device: Device;
  /** The header spans the page above the sider, with the logo. */
  stick: boolean;
  visible: boolean;
  hasSider: boolean;
  collapsed: boolean;
  onToggleCollapse: () => void;
  onOpenMobileMenu: () => void;
  onReload: () => void;
  onOpenSettings: () => void;
}

const useWidth = () => {
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    setWidth(element.clientWidth);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
};

export const Header = (props: HeaderProps) => {
  const { user, menus, settings, device, stick, visible, hasSider, collapsed } = props;
  const { t } = useTranslation();
  const { ref, width } = useWidth();
  const mobile = device === 'mobile';
  const showLogo = mobile ? settings.showMobileLogo : stick || !hasSider;
  const darkHeader = settings.headerTheme !== 'light';
  return (
    <header
      ref={ref}
      className="rp-header"
      data-testid="header"
      data-theme={settings.headerTheme}
      data-fixed={settings.headerFix}
      data-hidden={!visible}
      style={{ height: HEADER_HEIGHT }}
    >
      {showLogo && (
        <Logo
          user={user}
          compact={mobile || (hasSider && collapsed)}
          // Above the sider, the logo is as wide as the sider under it.
          width={!mobile && hasSider ? (collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH) : undefined}
        />
      )}
      {mobile && (
        <HeaderButton label={t('layout.header.openMenu')} onClick={props.onOpenMobileMenu}>
          <MenuOutlined />
        </HeaderButton>
      )}
      {!mobile && hasSider && settings.showSiderCollapse && (
        <HeaderButton
          label={t(collapsed ? 'layout.header.expand' : 'layout.header.collapse')}
          aria-pressed={collapsed}
          onClick={props.onToggleCollapse}
        >
          {collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        </HeaderButton>
      )}
      {settings.showReload && (
        <HeaderButton label={t('layout.header.reload')} onClick={props.onReload}>
          <ReloadOutlined />
        </HeaderButton>
      )}
      {!mobile && settings.headerMenu && (
        <HeaderMenu header={menus.header} sider={menus.sider} theme={darkHeader ? 'dark' : 'light'} />
      )}
      {!mobile && !settings.headerMenu && settings.showBreadcrumb && (
        <HeaderBreadcrumb headerWidth={width} showIcons={settings.showBreadcrumbIcon} />
      )}
      <div className="rp-header-actions">
        {settings.showSearch && <HeaderSearch sider={menus.sider} />}
        {settings.showLog && <LogBadge />}
        {device === 'desktop' && settings.showFullscreen && <FullscreenButton />}
        {settings.showNotice && <NoticeButton user={user} />}
        <UserMenu user={user} confirmLogout={settings.logoutConfirm} />
        {settings.showI18n && <LanguageMenu />}
        {settings.enableSetting && (
          <HeaderButton label={t('layout.header.settings')} onClick={props.onOpenSettings}>
            <SettingOutlined />
          </HeaderButton>
        )}
      </div>
    </header>
  );
};
