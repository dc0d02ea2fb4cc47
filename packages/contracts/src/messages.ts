import { type Static, Type } from 'typebox';
import { ListQuery } from './envelope.ts';
import { Id, IdOrZero } from './fields.ts';

/** The kinds of in-app message; node_failover reaches admins only. */
export const MESSAGE_TYPES = [
  'system',
  'announcement',
  'cert_expiry',
  'package_expiry',
  'package_usage',
  'balance_low',
  'node_failover',
  'security',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** Types only admins (type 1) receive and subscribe to. */
export const ADMIN_MESSAGE_TYPES: readonly MessageType[] = ['node_failover'];

export const MessageTypeSchema = Type.Union(
  [
    Type.Literal('system'),
    Type.Literal('announcement'),
    Type.Literal('cert_expiry'),
    Type.Literal('package_expiry'),
    Type.Literal('package_usage'),
    Type.Literal('balance_low'),
    Type.Literal('node_failover'),
    Type.Literal('security'),
  ],
  { description: MESSAGE_TYPES.join(', ') },
);

export const MESSAGE_CHANNELS = ['in_app', 'email', 'sms', 'webhook'] as const;
export type MessageChannelName = (typeof MESSAGE_CHANNELS)[number];

const Text = (max: number, description: string) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    // Line breaks are allowed in a body; other control characters are not.
    pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]*\\S[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]*$',
    description,
  });
export const MessageTitle = Text(200, '1 to 200 characters, not only spaces, no control characters');
export const MessageBody = Text(5000, '1 to 5000 characters, not only spaces, no control characters but line breaks');

export const Message = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  account: Type.Union([Type.String(), Type.Null()], { description: "the recipient's account name" }),
  type: MessageTypeSchema,
  title: Type.String(),
  body: Type.String(),
  read: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  read_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type Message = Static<typeof Message>;

/** GET /v1/messages: the caller's messages; with scope=all an admin (admin:sys) queries everyone's. */
export const MessageQuery = Type.Object({
  ...ListQuery.properties,
  type: Type.Optional(MessageTypeSchema),
  read: Type.Optional(Type.Boolean({ description: 'true: read only; false: unread only' })),
  scope: Type.Optional(Type.Union([Type.Literal('mine'), Type.Literal('all')], { description: 'mine or all' })),
  user_id: Type.Optional(Id),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'sent at or after, ISO 8601' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'sent before, ISO 8601' })),
  order: Type.Optional(Type.Union([Type.Literal('desc'), Type.Literal('asc')], { description: 'desc or asc' })),
});
export type MessageQuery = Static<typeof MessageQuery>;

export const MessageList = Type.Object({
  list: Type.Array(Message),
  total: Type.Integer(),
  /** True when `total` is a lower bound: the admin's query of everyone's stops counting at 10,000. */
  total_capped: Type.Optional(Type.Boolean()),
  unread: Type.Integer({ description: "the caller's own unread messages, for the header's bell" }),
});
export type MessageList = Static<typeof MessageList>;

export const MessageTarget = Type.Union([Type.Literal('user'), Type.Literal('group'), Type.Literal('all')], {
  description: 'user, group or all',
});
export type MessageTarget = Static<typeof MessageTarget>;

/** POST /v1/messages (admin:sys): a message to one user, the users of a group, or everyone. */
export const MessageSendBody = Type.Object(
  {
    target: MessageTarget,
    user_id: Type.Optional(Id),
    group_id: Type.Optional(IdOrZero),
    type: Type.Optional(
      Type.Union([Type.Literal('system'), Type.Literal('announcement')], { description: 'system or announcement' }),
    ),
    title: MessageTitle,
    body: MessageBody,
  },
  { additionalProperties: false },
);
export type MessageSendBody = Static<typeof MessageSendBody>;

export const MessageSendResult = Type.Object({ recipients: Type.Integer() });
export type MessageSendResult = Static<typeof MessageSendResult>;

/** PUT /v1/messages/{id}: mark one read or unread. */
export const MessageUpdateBody = Type.Object({ read: Type.Boolean() }, { additionalProperties: false });
export type MessageUpdateBody = Static<typeof MessageUpdateBody>;

/** POST /v1/messages/read: some of the caller's messages by id, or all of them. */
export const MessageReadBody = Type.Object(
  {
    ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 1000, description: '1 to 1000 message ids' })),
    all: Type.Optional(Type.Boolean({ description: 'true: every unread message of the caller' })),
  },
  { additionalProperties: false },
);
export type MessageReadBody = Static<typeof MessageReadBody>;

export const MessageReadResult = Type.Object({ updated: Type.Integer(), unread: Type.Integer() });

export const ChannelSet = Type.Object(
  { in_app: Type.Boolean(), email: Type.Boolean(), sms: Type.Boolean(), webhook: Type.Boolean() },
  { additionalProperties: false },
);
export type ChannelSet = Static<typeof ChannelSet>;

export const SubscriptionEntry = Type.Object({ type: MessageTypeSchema, ...ChannelSet.properties });
export type SubscriptionEntry = Static<typeof SubscriptionEntry>;

export const MessageSubscription = Type.Object({
  types: Type.Array(SubscriptionEntry, { description: 'the channels of each message type the caller receives' }),
  webhook_url: Type.String({ description: 'the HTTPS URL webhook messages are posted to; empty: none' }),
  has_secret: Type.Boolean({ description: 'whether a signing secret is set (it is shown only when generated)' }),
  /** Only in the answer that generated it. */
  webhook_secret: Type.Optional(Type.String()),
  test: Type.Optional(
    Type.Object({
      status: Type.Union([Type.Literal('sent'), Type.Literal('failed')]),
      error: Type.String(),
    }),
  ),
});
export type MessageSubscription = Static<typeof MessageSubscription>;

export const WebhookUrl = Type.String({
  maxLength: 2000,
  pattern: '^(|https://[^\\s]+)$',
  description: 'an https:// URL of at most 2000 characters, or empty to remove it',
});

/** PUT /v1/messages/sub */
export const MessageSubscriptionBody = Type.Object(
  {
    types: Type.Optional(Type.Array(SubscriptionEntry, { maxItems: MESSAGE_TYPES.length })),
    webhook_url: Type.Optional(WebhookUrl),
    generate_secret: Type.Optional(Type.Boolean({ description: 'true: make a new signing secret, shown once' })),
    send_test: Type.Optional(Type.Boolean({ description: 'true: post a signed test message to the webhook now' })),
  },
  { additionalProperties: false },
);
export type MessageSubscriptionBody = Static<typeof MessageSubscriptionBody>;
