import LogoutOutlined from '@ant-design/icons/LogoutOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { USER_TYPE, type User } from '@rampart/contracts';
import Dropdown from 'antd/es/dropdown';
import type { MenuProps } from 'antd/es/menu';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSignOut } from '../../features/auth/useSignOut.ts';

const LogoutConfirm = lazy(async () => ({ default: (await import('./LogoutConfirm.tsx')).LogoutConfirm }));

/** Spec §2 user menu: personal center (type 2), system settings (type 1), log out (optionally confirmed). */
export const UserMenu = ({ user, confirmLogout }: { user: User; confirmLogout: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const [confirming, setConfirming] = useState(false);
  const items: MenuProps['items'] = [
    ...(user.type === USER_TYPE.user
      ? [{ key: '/account/user', icon: <UserOutlined />, label: t('layout.user.center') }]
      : []),
    ...(user.type === USER_TYPE.admin
      ? [{ key: '/sys/setting', icon: <SettingOutlined />, label: t('layout.user.settings') }]
      : []),
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('layout.user.logout'), danger: true },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key !== 'logout') navigate(key);
    else if (confirmLogout) setConfirming(true);
    else void signOut();
  };
  return (
    <>
      <Dropdown trigger={['click']} menu={{ items, onClick }}>
        <button type="button" className="rp-header-button rp-user" aria-label={t('layout.user.menu')}>
          <span className="rp-avatar" aria-hidden="true">
            <UserOutlined />
          </span>
          <span className="rp-user-name" data-testid="current-account">
            {user.name || user.account}
          </span>
        </button>
      </Dropdown>
      {confirming && (
        <Suspense fallback={null}>
          <LogoutConfirm onConfirm={signOut} onCancel={() => setConfirming(false)} />
        </Suspense>
      )}
    </>
  );
};
