import BellOutlined from '@ant-design/icons/BellOutlined';
import { USER_TYPE, type User } from '@rampart/contracts';
import Badge from 'antd/es/badge';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUnreadCount } from '../../features/messages/api.ts';

/** The messages of the signed-in user, with their unread count: the message query page of their side of the console. */
export const NoticeButton = ({ user }: { user: Pick<User, 'type'> }) => {
  const { t } = useTranslation();
  const unread = useUnreadCount().data ?? 0;
  const target = user.type === USER_TYPE.admin ? '/sys/message' : '/account/message';
  const label = t('layout.header.notice');
  return (
    <Link
      to={target}
      className="rp-header-button"
      aria-label={`${label} (${unread})`}
      title={label}
      data-testid="notice-bell"
    >
      <Badge count={unread} overflowCount={99} size="small" offset={[4, -2]} data-testid="notice-count">
        <BellOutlined className="rp-header-icon" />
      </Badge>
    </Link>
  );
};
