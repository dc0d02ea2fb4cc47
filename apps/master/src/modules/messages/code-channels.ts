import type { CodeChannels } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import type { Settings } from '../settings/settings.service.ts';
import type { Messenger } from './messenger.ts';
import { savedSmsAccount } from './sms-gateway.ts';

/**
 * Whether email and SMS codes can reach people: exactly the transports the messenger sends through.
 * Mail: an SMTP host saved in /sys/setting, or the master started with RAMPART_SMTP_URL. SMS: a
 * provider saved with every field its API needs, or one the master was started with. Without one, a
 * code would only land in the operator's outbox, so the code endpoints refuse it and registration
 * does not ask for it.
 */
export function codeChannels(settings: Settings, messenger: Pick<Messenger, 'transports'>): CodeChannels {
  return {
    email_code: messenger.transports.email || settings.smtp_host !== '',
    phone_code: messenger.transports.sms || savedSmsAccount(settings) !== undefined,
  };
}

/** Refuses, as `channel_unavailable`, a code on a channel that cannot deliver it. */
export function checkCodeChannel(channels: CodeChannels, channel: 'email' | 'sms') {
  if (channel === 'email' && !channels.email_code) {
    throw new AppError('channel_unavailable', 'email codes cannot be sent: no mail server is set up', {
      channel: 'email',
    });
  }
  if (channel === 'sms' && !channels.phone_code) {
    throw new AppError('channel_unavailable', 'phone codes cannot be sent: no SMS provider is set up', {
      channel: 'sms',
    });
  }
}
