import type { MenuItem } from '@rampart/contracts';
import Menu from 'antd/es/menu';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { MenuIcon } from '../menu/MenuIcon.tsx';
import { activeItems } from '../menu/menuModel.ts';

interface HeaderMenuProps {
  header: readonly MenuItem[];
  sider: readonly MenuItem[];
  theme: 'light' | 'dark';
}

/** Spec §2 header-menu mode: the top-level entries across the header; the sider lists the chosen one's pages. */
export const HeaderMenu = ({ header, sider, theme }: HeaderMenuProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const active = activeItems(sider, pathname).top;
  return (
    <nav aria-label={t('layout.menu.header')} className="rp-header-menu">
      <Menu
        mode="horizontal"
        theme={theme}
        selectedKeys={active ? [active.path] : []}
        items={header.map((item) => ({
          key: item.path,
          icon: <MenuIcon icon={item.icon} customIcon={item.customIcon} img={item.img} />,
          label: t(item.title),
        }))}
        onClick={({ key }) => navigate(key)}
      />
    </nav>
  );
};
