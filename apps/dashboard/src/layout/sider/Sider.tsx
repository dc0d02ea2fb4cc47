import type { MenuItem, User } from '@rampart/contracts';
import { useTranslation } from 'react-i18next';
import { Logo } from '../header/Logo.tsx';
import { SiderMenu } from '../menu/SiderMenu.tsx';
import type { LayoutSettings } from '../settings/layoutSettings.ts';
import { SIDER_COLLAPSED_WIDTH, SIDER_WIDTH } from './siderWidth.ts';

interface SiderProps {
  user: User;
  items: readonly MenuItem[];
  settings: LayoutSettings;
  collapsed: boolean;
  /** The logo sits in the sider when the header does not stick across the page. */
  withLogo: boolean;
}

export const Sider = ({ user, items, settings, collapsed, withLogo }: SiderProps) => {
  const { t } = useTranslation();
  return (
    <aside
      className="rp-sider"
      data-testid="sider"
      data-theme={settings.siderTheme}
      data-collapsed={collapsed}
      data-fixed={settings.siderFix}
      style={{ width: collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH }}
    >
      {withLogo && (
        <div className="rp-sider-logo">
          <Logo user={user} compact={collapsed} />
        </div>
      )}
      <nav aria-label={t('layout.menu.label')} className="rp-sider-menu">
        <SiderMenu
          items={items}
          theme={settings.siderTheme}
          collapsed={collapsed}
          accordion={settings.menuAccordion}
          collapsedTitles={settings.showCollapseMenuTitle}
        />
      </nav>
    </aside>
  );
};
