import {
  ADMIN_MESSAGE_TYPES,
  type ChannelSet,
  MESSAGE_TYPES,
  type MessageType,
  type SubscriptionEntry,
} from '@rampart/contracts';

/** What a user receives before choosing: everything in the app; by email what needs acting on. */
export function defaultChannels(type: MessageType): ChannelSet {
  const byEmail = type === 'security' || type === 'cert_expiry' || type === 'package_expiry' || type === 'balance_low';
  return { in_app: true, email: byEmail || type === 'node_failover', sms: false, webhook: false };
}

/** The types a user of this type (1 admin, 2 user) receives. */
export const typesFor = (userType: number): MessageType[] =>
  MESSAGE_TYPES.filter((type) => userType === 1 || !ADMIN_MESSAGE_TYPES.includes(type));

export interface ChannelRow {
  type: string;
  in_app: number;
  email: number;
  sms: number;
  webhook: number;
}

export const channelsOf = (type: MessageType, row: ChannelRow | undefined): ChannelSet =>
  row
    ? { in_app: row.in_app === 1, email: row.email === 1, sms: row.sms === 1, webhook: row.webhook === 1 }
    : defaultChannels(type);

export const sameChannels = (a: ChannelSet, b: ChannelSet) =>
  a.in_app === b.in_app && a.email === b.email && a.sms === b.sms && a.webhook === b.webhook;

export const entry = (type: MessageType, channels: ChannelSet): SubscriptionEntry => ({ type, ...channels });
