import { type Static, Type } from 'typebox';
import { ListQuery } from './envelope.ts';
import { DisplayName, Email, Id, MAX_ID, Password, Phone, Qq, Username } from './fields.ts';
import { ALL_ADMIN_PERMISSIONS, PERMISSIONS } from './permissions.ts';
import { User, UserStatus } from './user.ts';

/** The admin's view of users (GET, POST and batch PUT /v1/users; GET, PUT, DELETE /v1/users/{id}). */
export const UserTypeField = Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 (admin) or 2 (user)' });

/** A sub-admin's access list: admin permission codes only. */
export const AccessList = Type.Array(
  Type.Union([
    Type.Literal(PERMISSIONS.adminNode),
    Type.Literal(PERMISSIONS.adminConfig),
    Type.Literal(PERMISSIONS.adminPackage),
    Type.Literal(PERMISSIONS.adminFinance),
    Type.Literal(PERMISSIONS.adminSys),
    Type.Literal(PERMISSIONS.adminUser),
  ]),
  {
    maxItems: ALL_ADMIN_PERMISSIONS.length,
    uniqueItems: true,
    description: `distinct codes among ${ALL_ADMIN_PERMISSIONS.join(', ')}`,
  },
);

export const USER_SORTS = ['id', '-id', 'account', '-account', 'email', '-email', 'created_at', '-created_at'] as const;
export const UserSort = Type.Union(
  [
    Type.Literal('id'),
    Type.Literal('-id'),
    Type.Literal('account'),
    Type.Literal('-account'),
    Type.Literal('email'),
    Type.Literal('-email'),
    Type.Literal('created_at'),
    Type.Literal('-created_at'),
  ],
  { description: `one of ${USER_SORTS.join(', ')}` },
);
export type UserSort = Static<typeof UserSort>;

export const UserListQuery = Type.Object({
  ...ListQuery.properties,
  search: Type.Optional(
    Type.String({ maxLength: 64, description: 'part of the account, email, phone or name; at most 64 characters' }),
  ),
  type: Type.Optional(UserTypeField),
  group: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_ID,
      description: `a user group id, or 0 for users in no group (at most ${MAX_ID})`,
    }),
  ),
  state: Type.Optional(UserStatus),
  certified: Type.Optional(Type.Boolean({ description: 'true or false' })),
  sort: Type.Optional(UserSort),
});
export type UserListQuery = Static<typeof UserListQuery>;

const PACKAGE_EXEMPT =
  'true: may create sites and streams without an active package while the require_package setting is on';

export const AdminUser = Type.Object({
  ...User.properties,
  certified: Type.Boolean(),
  package_exempt: Type.Boolean({ description: PACKAGE_EXEMPT }),
  group_name: Type.Union([Type.String(), Type.Null()]),
});
export type AdminUser = Static<typeof AdminUser>;

const OptionalEmail = Type.Optional(Type.Union([Email, Type.Literal('')]));
const OptionalPhone = Type.Optional(Type.Union([Phone, Type.Literal('')]));
const OptionalQq = Type.Optional(Type.Union([Qq, Type.Literal('')]));

export const CreateUserBody = Type.Object(
  {
    username: Username,
    password: Type.Optional(Password),
    generate_password: Type.Optional(
      Type.Boolean({ description: 'true: the master makes a password and answers it once' }),
    ),
    name: Type.Optional(DisplayName),
    email: OptionalEmail,
    phone: OptionalPhone,
    qq: OptionalQq,
    type: Type.Optional(UserTypeField),
    access: Type.Optional(AccessList),
    group: Type.Optional(Type.Union([Id, Type.Null()])),
    package_exempt: Type.Optional(Type.Boolean({ description: PACKAGE_EXEMPT })),
  },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(DisplayName),
    email: OptionalEmail,
    phone: OptionalPhone,
    qq: OptionalQq,
    password: Type.Optional(Password),
    generate_password: Type.Optional(Type.Boolean({ description: 'true or false' })),
    type: Type.Optional(UserTypeField),
    access: Type.Optional(AccessList),
    group: Type.Optional(Type.Union([Id, Type.Null()])),
    status: Type.Optional(UserStatus),
    package_exempt: Type.Optional(Type.Boolean({ description: PACKAGE_EXEMPT })),
  },
  { additionalProperties: false },
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;

/** POST and PUT answer the user, and a generated password the one time it is shown. */
export const SavedUser = Type.Object({
  ...AdminUser.properties,
  password: Type.Optional(Type.String({ description: 'the generated password, shown once' })),
});
export type SavedUser = Static<typeof SavedUser>;

export const USER_BATCH_ACTIONS = ['enable', 'disable', 'group', 'package_exempt'] as const;
export const UserBatchBody = Type.Object(
  {
    ids: Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true, description: '1 to 1000 distinct user ids' }),
    action: Type.Union(
      [Type.Literal('enable'), Type.Literal('disable'), Type.Literal('group'), Type.Literal('package_exempt')],
      { description: USER_BATCH_ACTIONS.join(', ') },
    ),
    group_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the group to move to; null: no group' })),
    package_exempt: Type.Optional(
      Type.Boolean({ description: `with the package_exempt action: ${PACKAGE_EXEMPT}; false takes it away` }),
    ),
  },
  { additionalProperties: false },
);
export type UserBatchBody = Static<typeof UserBatchBody>;

export const UserBatchResult = Type.Object({ updated: Type.Integer({ minimum: 0 }) });
export type UserBatchResult = Static<typeof UserBatchResult>;

/** POST /v1/users/{id}/impersonate: a session of that user that carries who signed in as them. */
export const Impersonation = Type.Object({
  access_token: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  user: User,
  impersonator: Type.Object({ id: Type.Integer(), account: Type.String() }),
});
export type Impersonation = Static<typeof Impersonation>;
