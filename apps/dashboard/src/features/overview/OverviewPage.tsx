import Descriptions from 'antd/es/descriptions';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useSession } from '../../shared/session/session.ts';
import { USAGE_LOCALES } from '../usage/locales/bundle.ts';
import { AdminFigures } from './AdminFigures.tsx';
import { OVERVIEW_LOCALES } from './locales/bundle.ts';
import { PANEL } from './panel.ts';
import { SetupChecklist } from './SetupChecklist.tsx';
import { SystemInfo } from './SystemInfo.tsx';
import { UserFigures } from './UserFigures.tsx';

/** Balance in the smallest currency unit, shown with two decimals. */
export const formatBalance = (cents: number): string => (cents / 100).toFixed(2);

/** Service overview: the figures of the admin's or the user's side (one call), then the signed-in user and the system. */
export const OverviewPage = ({ audience }: { audience: 'user' | 'admin' }) => {
  const { t } = useLocales(OVERVIEW_LOCALES, USAGE_LOCALES);
  const user = useSession((state) => state.user);
  if (!user) return null;
  return (
    <section data-testid={audience === 'admin' ? 'admin-home-page' : 'home-page'} className="rp-overview">
      <h2 style={{ fontSize: 20, fontWeight: 600, margin: '0 0 4px' }}>{t('route.home')}</h2>
      <p style={{ color: 'rgba(0,0,0,0.45)', marginTop: 0 }}>
        {t(audience === 'admin' ? 'overview.adminIntro' : 'overview.userIntro')}
      </p>
      {audience === 'admin' && <SetupChecklist />}
      {audience === 'admin' ? <AdminFigures /> : <UserFigures />}
      <div style={PANEL}>
        <Descriptions
          data-testid="overview-user"
          title={t('overview.welcome', { name: user.name || user.account })}
          bordered
          size="small"
          column={{ xs: 1, sm: 1, md: 2 }}
          items={[
            { key: 'account', label: t('overview.user.account'), children: user.account },
            { key: 'name', label: t('overview.user.name'), children: user.name || '—' },
            { key: 'type', label: t('overview.user.type'), children: t(`overview.userType.${user.type}`) },
            { key: 'email', label: t('overview.user.email'), children: user.email || '—' },
            { key: 'phone', label: t('overview.user.phone'), children: user.phone || '—' },
            { key: 'balance', label: t('overview.user.balance'), children: formatBalance(user.balance) },
          ]}
        />
      </div>
      <SystemInfo />
    </section>
  );
};
