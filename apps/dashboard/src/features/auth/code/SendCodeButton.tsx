import type { CaptchaSent } from '@rampart/contracts';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useCountdown } from './useCountdown.ts';

interface SendCodeButtonProps {
  /** Validates the address and sends; undefined when nothing was sent. */
  send: () => Promise<CaptchaSent | undefined>;
  testId: string;
}

/** Sends an email or SMS code, then counts down the server's `resend_after` seconds. */
export const SendCodeButton = ({ send, testId }: SendCodeButtonProps) => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const { seconds, start } = useCountdown();
  const [sending, setSending] = useState(false);
  const onClick = async () => {
    setSending(true);
    try {
      const sent = await send();
      if (sent) {
        start(sent.resend_after);
        feedback.success(t('auth.code.sent'));
      }
    } catch {
      // the HTTP client has shown the failure
    } finally {
      setSending(false);
    }
  };
  return (
    <Button onClick={onClick} loading={sending} disabled={seconds > 0} data-testid={testId}>
      {seconds > 0 ? t('auth.code.resend', { seconds: String(seconds) }) : t('auth.code.send')}
    </Button>
  );
};
