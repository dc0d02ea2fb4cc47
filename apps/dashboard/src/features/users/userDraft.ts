import type { AdminUser, CreateUserBody, UpdateUserBody } from '@rampart/contracts';

export type PasswordMode = 'keep' | 'set' | 'generate';

/** The drawer's form values. */
export interface UserDraft {
  username: string;
  passwordMode: PasswordMode;
  password: string;
  name: string;
  email: string;
  phone: string;
  qq: string;
  type: 1 | 2;
  access: string[];
  group: number;
  /** A customer who may add sites and streams without a package. */
  packageExempt: boolean;
}

/** Fields the server may name in a refusal, shown next to that field. */
export const USER_FIELDS = ['username', 'password', 'name', 'email', 'phone', 'qq', 'type', 'access', 'group'] as const;

export const NEW_USER: UserDraft = {
  username: '',
  passwordMode: 'generate',
  password: '',
  name: '',
  email: '',
  phone: '',
  qq: '',
  type: 2,
  access: [],
  group: 0,
  packageExempt: false,
};

/** A new user starts in the default group, when there is one. */
export const newUser = (groups: readonly { id: number; is_default: boolean }[]): UserDraft => ({
  ...NEW_USER,
  group: groups.find((group) => group.is_default)?.id ?? 0,
});

export const userDraft = (user: AdminUser): UserDraft => ({
  username: user.account,
  passwordMode: 'keep',
  password: '',
  name: user.name,
  email: user.email,
  phone: user.phone,
  qq: user.qq,
  type: user.type,
  access: user.access,
  group: user.group ?? 0,
  packageExempt: user.package_exempt,
});

const password = (draft: UserDraft) =>
  draft.passwordMode === 'set'
    ? { password: draft.password }
    : draft.passwordMode === 'generate'
      ? { generate_password: true }
      : {};

/** POST /v1/users: empty contacts stay out; group 0 means none. */
export const createBody = (draft: UserDraft): CreateUserBody => ({
  username: draft.username.trim(),
  ...password(draft),
  ...(draft.name && { name: draft.name }),
  ...(draft.email && { email: draft.email.trim() }),
  ...(draft.phone && { phone: draft.phone.trim() }),
  ...(draft.qq && { qq: draft.qq.trim() }),
  type: draft.type,
  ...(draft.type === 1 && { access: draft.access as CreateUserBody['access'] }),
  group: draft.group === 0 ? null : draft.group,
  ...(draft.type === 2 && draft.packageExempt && { package_exempt: true }),
});

/** PUT /v1/users/{id}: only what changed. */
export const updateBody = (user: AdminUser, draft: UserDraft): UpdateUserBody => {
  const body: UpdateUserBody = { ...password(draft) };
  if (draft.name !== user.name) body.name = draft.name;
  if (draft.email.trim() !== user.email) body.email = draft.email.trim();
  if (draft.phone.trim() !== user.phone) body.phone = draft.phone.trim();
  if (draft.qq.trim() !== user.qq) body.qq = draft.qq.trim();
  if (draft.type !== user.type) body.type = draft.type;
  const access = draft.type === 1 ? draft.access : [];
  if (draft.type === 1 && [...access].sort().join() !== [...user.access].sort().join()) {
    body.access = access as UpdateUserBody['access'];
  }
  if (draft.group !== (user.group ?? 0)) body.group = draft.group === 0 ? null : draft.group;
  if (draft.type === 2 && draft.packageExempt !== user.package_exempt) body.package_exempt = draft.packageExempt;
  return body;
};
