import BellOutlined from '@ant-design/icons/BellOutlined';
import { USER_TYPE, type User } from '@rampart/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The messages of the signed-in user: the message query page of their side of the console. */
export const NoticeButton = ({ user }: { user: Pick<User, 'type'> }) => {
  const { t } = useTranslation();
  const target = user.type === USER_TYPE.admin ? '/sys/message' : '/account/message';
  return (
    <Link
      to={target}
      className="rp-header-button"
      aria-label={t('layout.header.notice')}
      title={t('layout.header.notice')}
    >
      <BellOutlined />
    </Link>
  );
};
