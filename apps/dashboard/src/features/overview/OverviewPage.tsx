import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/session.ts';

/** Service overview; the real figures come with the overview issue. */
export const OverviewPage = ({ audience }: { audience: 'user' | 'admin' }) => {
  const { t } = useTranslation();
  const user = useSession((state) => state.user);
  return (
    <section data-testid={audience === 'admin' ? 'admin-home-page' : 'home-page'}>
      <Typography.Title level={3}>{t('route.home')}</Typography.Title>
      <Typography.Paragraph>{t('overview.welcome', { name: user?.name || user?.account || '' })}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        {t(audience === 'admin' ? 'overview.adminIntro' : 'overview.userIntro')}
      </Typography.Paragraph>
    </section>
  );
};
