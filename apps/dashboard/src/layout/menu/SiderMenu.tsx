import type { MenuItem } from '@rampart/contracts';
import Menu, { type MenuProps } from 'antd/es/menu';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { MenuIcon } from './MenuIcon.tsx';
import { activeItems } from './menuModel.ts';

interface SiderMenuProps {
  items: readonly MenuItem[];
  theme: 'light' | 'dark';
  collapsed: boolean;
  accordion: boolean;
  /** Collapsed: the title under each icon (spec §2 "titles in collapsed menu"). */
  collapsedTitles: boolean;
  onNavigate?: () => void;
}

type AntdItems = NonNullable<MenuProps['items']>;

type AntdItem = AntdItems[number];

const toItem = (item: MenuItem, t: (key: string) => string, titled: boolean, depth: number): AntdItem => {
  const icon = <MenuIcon icon={item.icon} customIcon={item.customIcon} img={item.img} />;
  const children = item.children && item.children.length > 0 ? toItems(item.children, t, titled, depth + 1) : null;
  if (titled && depth === 0) {
    // Collapsed with titles: the icon and a short title stacked in the 80 px column.
    const label = (
      <span className="rp-menu-titled">
        {icon}
        <span className="rp-menu-titled-text">{t(item.title)}</span>
      </span>
    );
    return { key: item.path, label, ...(children && { children }) };
  }
  return { key: item.path, label: t(item.title), ...(depth === 0 && { icon }), ...(children && { children }) };
};

const toItems = (items: readonly MenuItem[], t: (key: string) => string, titled: boolean, depth = 0): AntdItems =>
  items.map((item) => toItem(item, t, titled, depth));

/** The side menu: the current page selected and its group open; one group at a time in accordion mode. */
export const SiderMenu = ({ items, theme, collapsed, accordion, collapsedTitles, onNavigate }: SiderMenuProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { top, leaf } = activeItems(items, pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(top?.children ? [top.path] : []);
  const titled = collapsed && collapsedTitles;
  // The same items across navigations: only the selection changes when the page does.
  const menuItems = useMemo(() => toItems(items, t, titled), [items, t, titled]);

  useEffect(() => {
    if (!top?.children) return;
    setOpenKeys((open) => (open.includes(top.path) ? open : accordion ? [top.path] : [...open, top.path]));
  }, [top, accordion]);

  const onOpenChange = (keys: string[]) => {
    const opened = keys.find((key) => !openKeys.includes(key));
    setOpenKeys(accordion && opened ? [opened] : keys);
  };

  return (
    <Menu
      mode={titled ? 'vertical' : 'inline'}
      theme={theme}
      inlineCollapsed={titled ? undefined : collapsed}
      className={titled ? 'rp-menu rp-menu-with-titles' : 'rp-menu'}
      items={menuItems}
      selectedKeys={leaf ? [leaf.path] : []}
      {...(!collapsed && { openKeys, onOpenChange })}
      onClick={({ key }) => {
        navigate(key);
        onNavigate?.();
      }}
    />
  );
};
