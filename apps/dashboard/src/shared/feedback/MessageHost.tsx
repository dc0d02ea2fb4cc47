import useMessage from 'antd/es/message/useMessage';
import { useEffect } from 'react';
import { MESSAGE_SECONDS, type MessageApi } from './toast.ts';

/** antd's message holder; hands its API to the provider once mounted. */
export const MessageHost = ({ onReady }: { onReady: (api: MessageApi) => void }) => {
  const [message, holder] = useMessage({ maxCount: 5 });
  useEffect(() => {
    onReady(({ type, text }) => {
      void message.open({ type, content: text, duration: MESSAGE_SECONDS });
    });
  }, [message, onReady]);
  return holder;
};
