import AccountBookOutlined from '@ant-design/icons/AccountBookOutlined';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import ClusterOutlined from '@ant-design/icons/ClusterOutlined';
import DashboardOutlined from '@ant-design/icons/DashboardOutlined';
import FileTextOutlined from '@ant-design/icons/FileTextOutlined';
import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import ShoppingOutlined from '@ant-design/icons/ShoppingOutlined';
import SwapOutlined from '@ant-design/icons/SwapOutlined';
import ToolOutlined from '@ant-design/icons/ToolOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import type { ComponentType } from 'react';
import { isSameOriginUrl } from '../../shared/util/safeUrl.ts';

/** The icon names route records and menu items use. */
const ICONS: Record<string, ComponentType> = {
  'account-book': AccountBookOutlined,
  appstore: AppstoreOutlined,
  cluster: ClusterOutlined,
  dashboard: DashboardOutlined,
  'file-text': FileTextOutlined,
  global: GlobalOutlined,
  setting: SettingOutlined,
  shopping: ShoppingOutlined,
  swap: SwapOutlined,
  tool: ToolOutlined,
  user: UserOutlined,
};

/** A relative URL or one on this origin: menu images come from the server's menu. */

interface MenuIconProps {
  icon?: string;
  customIcon?: string;
  img?: string;
}

/** A menu item's picture: an image, a custom icon class, or one of the named icons. */
export const MenuIcon = ({ icon, customIcon, img }: MenuIconProps) => {
  if (img && isSameOriginUrl(img)) {
    return <img src={img} alt="" aria-hidden="true" width={14} height={14} className="rp-menu-img anticon" />;
  }
  if (customIcon) return <span className={`anticon ${customIcon}`} aria-hidden="true" />;
  const Icon = icon ? ICONS[icon] : undefined;
  return Icon ? <Icon /> : null;
};

export const hasMenuIcon = ({ icon, customIcon, img }: MenuIconProps): boolean =>
  Boolean(img || customIcon || (icon && icon in ICONS));
