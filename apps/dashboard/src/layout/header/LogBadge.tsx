import BugOutlined from '@ant-design/icons/BugOutlined';
import Badge from 'antd/es/badge';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFrontLog } from '../../shared/log/frontLog.ts';

/** Spec §9: the log badge counts the front-end log's entries, shown as 99+ past 99. */
export const LOG_BADGE_OVERFLOW = 99;

export const LogBadge = () => {
  const { t } = useTranslation();
  const count = useFrontLog((state) => state.entries.length);
  const label = t('layout.header.log');
  return (
    <Link
      to="/log"
      className="rp-header-button"
      aria-label={`${label} (${count})`}
      title={label}
      data-testid="log-badge"
    >
      <Badge count={count} overflowCount={LOG_BADGE_OVERFLOW} size="small" offset={[4, -2]}>
        <BugOutlined className="rp-header-icon" />
      </Badge>
    </Link>
  );
};
