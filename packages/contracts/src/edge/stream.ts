import { type Static, Type } from 'typebox';
import { OwnerAccount } from '../user.ts';
import { Port } from './fields.ts';
import { Balance, Origin } from './site.ts';

export const StreamSettings = Type.Object(
  {
    listen_port: Port,
    protocol: Type.Union([Type.Literal('tcp'), Type.Literal('udp')], { description: 'tcp or udp' }),
    origins: Type.Array(Origin, { minItems: 1, maxItems: 64, description: '1 to 64 origins' }),
    balance: Balance,
    proxy_protocol: Type.Boolean(),
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type StreamSettings = Static<typeof StreamSettings>;

export const Stream = Type.Object({
  ...StreamSettings.properties,
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_account: Type.Optional(OwnerAccount),
  group_id: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type Stream = Static<typeof Stream>;
