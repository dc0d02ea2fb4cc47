import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';

/** The owner of a list row as its account name, with the user id in a tooltip; user 0 is the system. */
export const OwnerName = ({ userId, account }: { userId: number; account?: string | null | undefined }) => {
  const { t } = useTranslation();
  if (userId === 0) return <span style={NO_WRAP}>{t('common.owner.system')}</span>;
  return (
    <Tooltip title={t('common.owner.id', { id: userId })}>
      <span style={NO_WRAP} data-testid={`owner:${userId}`}>
        {account ?? t('common.owner.removed', { id: userId })}
      </span>
    </Tooltip>
  );
};

const NO_WRAP = { whiteSpace: 'nowrap' } as const;
