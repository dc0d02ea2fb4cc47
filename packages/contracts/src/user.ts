import { type Static, Type } from 'typebox';
import { DisplayName, Email, Password, Phone, Qq } from './fields.ts';

export const UserStatus = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);

/** A user as every call returns it: never the password hash. */
export const User = Type.Object({
  id: Type.Integer(),
  account: Type.String(),
  username: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  qq: Type.String(),
  type: Type.Union([Type.Literal(1), Type.Literal(2)]),
  access: Type.Array(Type.String()),
  group: Type.Union([Type.Integer(), Type.Null()]),
  balance: Type.Integer({ description: 'in the smallest currency unit (cents)' }),
  status: UserStatus,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type User = Static<typeof User>;

/** Next to `user_id` in list rows, so that lists show whose a row is by name. */
export const OwnerAccount = Type.Union([Type.String(), Type.Null()], {
  description: "the owner's account name, in list calls; null for user 0 (system rows) or a removed user",
});

export const UserWithToken = Type.Intersect([
  User,
  Type.Object({ access_token: Type.String(), expires_at: Type.String({ format: 'date-time' }) }),
]);
export type UserWithToken = Static<typeof UserWithToken>;

/** PUT /v1/user: profile fields; a new password needs the old one. */
export const UpdateCurrentUserBody = Type.Object(
  {
    name: Type.Optional(DisplayName),
    email: Type.Optional(Type.Union([Email, Type.Literal('')])),
    phone: Type.Optional(Type.Union([Phone, Type.Literal('')])),
    qq: Type.Optional(Type.Union([Qq, Type.Literal('')])),
    old_password: Type.Optional(Type.String({ maxLength: 128 })),
    password: Type.Optional(Password),
  },
  { additionalProperties: false },
);
export type UpdateCurrentUserBody = Static<typeof UpdateCurrentUserBody>;
