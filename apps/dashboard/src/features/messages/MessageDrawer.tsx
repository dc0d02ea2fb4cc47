import type { Message } from '@rampart/contracts';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { formatLogTime } from '../account-logs/logTime.ts';
import { MessageTypeTag } from './messageColumns.tsx';

/** One message in full; `onToggleRead` is absent in the admin's view of others' messages. */
export const MessageDrawer = ({
  message,
  onClose,
  onToggleRead,
}: {
  message: Message | null;
  onClose: () => void;
  onToggleRead?: ((message: Message) => void) | undefined;
}) => {
  const { t, i18n } = useTranslation();
  return (
    <Drawer
      open={message !== null}
      title={message?.title ?? t('messages.drawer.title')}
      onClose={onClose}
      size={520}
      destroyOnHidden
      extra={
        message &&
        onToggleRead && (
          <Button onClick={() => onToggleRead(message)}>
            {message.read ? t('messages.drawer.markUnread') : t('messages.drawer.markRead')}
          </Button>
        )
      }
    >
      {message && (
        <div data-testid="message-drawer">
          <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('messages.list.typeColumn')}>
              <MessageTypeTag type={message.type} t={t} />
            </Descriptions.Item>
            <Descriptions.Item label={t('messages.list.time')}>
              {formatLogTime(message.created_at, i18n.language)}
            </Descriptions.Item>
            {message.account && (
              <Descriptions.Item label={t('messages.list.account')}>{message.account}</Descriptions.Item>
            )}
          </Descriptions>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{message.body}</Typography.Paragraph>
        </div>
      )}
    </Drawer>
  );
};
