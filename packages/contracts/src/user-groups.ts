import { type Static, Type } from 'typebox';
import { ListQuery } from './envelope.ts';
import { Id } from './fields.ts';

/** A group of customers: the default one takes new users; package groups they may buy come with packages. */
export const UserGroupName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^\\u0000-\\u001f<>]*\\S[^\\u0000-\\u001f<>]*$',
  description: '1 to 64 characters, not only spaces, no control characters or < >',
});

export const UserGroupDescription = Type.String({
  maxLength: 500,
  pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f<>]*$',
  description: 'at most 500 characters, no control characters or < >',
});

const PackageGroups = Type.Union(
  [
    Type.Array(Id, { maxItems: 200, uniqueItems: true, description: 'at most 200 distinct package group ids' }),
    Type.Null(),
  ],
  { description: 'the package groups its users may buy; null: not set' },
);

export const UserGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  is_default: Type.Boolean(),
  package_groups: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  user_count: Type.Integer({ minimum: 0 }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type UserGroup = Static<typeof UserGroup>;

export const UserGroupListQuery = Type.Object({
  ...ListQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 64, description: 'at most 64 characters' })),
});
export type UserGroupListQuery = Static<typeof UserGroupListQuery>;

export const CreateUserGroupBody = Type.Object(
  {
    name: UserGroupName,
    description: Type.Optional(UserGroupDescription),
    is_default: Type.Optional(Type.Boolean({ description: 'true or false' })),
    package_groups: Type.Optional(PackageGroups),
  },
  { additionalProperties: false },
);
export type CreateUserGroupBody = Static<typeof CreateUserGroupBody>;

export const UpdateUserGroupBody = Type.Partial(CreateUserGroupBody, { additionalProperties: false });
export type UpdateUserGroupBody = Static<typeof UpdateUserGroupBody>;
