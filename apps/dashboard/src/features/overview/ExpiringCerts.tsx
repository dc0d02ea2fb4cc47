import type { UserOverview } from '@rampart/contracts';
import List from 'antd/es/list';
import { useTranslation } from 'react-i18next';

/** The user's certificates that expire soon, each with its end date in the user's language. */
export const ExpiringCerts = ({ certs }: { certs: UserOverview['certs_expiring_list'] }) => {
  const { t, i18n } = useTranslation();
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <List
      data-testid="overview-expiring-certs"
      size="small"
      header={t('overview.mine.certsExpiring')}
      dataSource={certs}
      renderItem={(cert) => (
        <List.Item>
          {cert.name || `#${cert.id}`} · {t('overview.mine.notAfter', { date: when.format(new Date(cert.not_after)) })}
        </List.Item>
      )}
    />
  );
};
