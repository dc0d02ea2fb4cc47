import type { MenuItem, User } from '@rampart/contracts';
import Drawer from 'antd/es/drawer';
import { useTranslation } from 'react-i18next';
import { Logo } from '../header/Logo.tsx';
import { SiderMenu } from '../menu/SiderMenu.tsx';
import type { LayoutSettings } from '../settings/layoutSettings.ts';
import { SIDER_WIDTH } from './siderWidth.ts';

interface MobileMenuProps {
  user: User;
  items: readonly MenuItem[];
  settings: LayoutSettings;
  onClose: () => void;
}

/** Spec §2 mobile drawer menu: the sider menu in a drawer from the left; choosing a page closes it. */
export const MobileMenu = ({ user, items, settings, onClose }: MobileMenuProps) => {
  const { t } = useTranslation();
  return (
    <Drawer
      open
      placement="left"
      size={SIDER_WIDTH}
      onClose={onClose}
      closable={false}
      title={<Logo user={user} />}
      data-testid="mobile-menu"
      styles={{ body: { padding: 0 } }}
    >
      <nav aria-label={t('layout.menu.mobile')}>
        <SiderMenu
          items={items}
          theme="light"
          collapsed={false}
          accordion={settings.menuAccordion}
          collapsedTitles={false}
          onNavigate={onClose}
        />
      </nav>
    </Drawer>
  );
};
