import LogoutOutlined from '@ant-design/icons/LogoutOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Layout from 'antd/es/layout';
import Typography from 'antd/es/typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSignOut } from '../features/auth/useSignOut.ts';
import { LanguageSwitch } from '../shared/i18n/LanguageSwitch.tsx';
import { landingPath, useSession } from '../shared/session/session.ts';

const HEADER_HEIGHT = 64;

/** Until the console chrome arrives: a header with the app name, the account and sign-out. */
export const PlainLayout = ({ children }: { children: ReactNode }) => {
  const { t } = useTranslation();
  const user = useSession((state) => state.user);
  const signOut = useSignOut();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{ height: HEADER_HEIGHT, background: '#fff', borderBottom: '1px solid #f0f0f0', padding: '0 24px' }}
      >
        <Flex align="center" justify="space-between" style={{ height: '100%' }}>
          <Link to={landingPath(user)} style={{ fontSize: 18, fontWeight: 600 }}>
            {t('common.appName')}
          </Link>
          <Flex align="center" gap={8}>
            <LanguageSwitch />
            <Typography.Text data-testid="current-account">
              <UserOutlined /> {user?.account}
            </Typography.Text>
            <Button icon={<LogoutOutlined />} onClick={() => void signOut()}>
              {t('common.signOut')}
            </Button>
          </Flex>
        </Flex>
      </Layout.Header>
      <Layout.Content style={{ padding: 24 }}>{children}</Layout.Content>
    </Layout>
  );
};
