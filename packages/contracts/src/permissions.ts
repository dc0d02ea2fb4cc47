/**
 * Permission codes held in a user's `access` list. The master enforces them on routes and builds
 * menus from them; the dashboard hides elements with the same codes. Admin areas need an `admin:*`
 * code; customer areas carry no code, so a user with an empty access list still sees them.
 */
export const PERMISSIONS = {
  adminNode: 'admin:node',
  adminConfig: 'admin:config',
  adminPackage: 'admin:package',
  adminFinance: 'admin:finance',
  adminSys: 'admin:sys',
  adminUser: 'admin:user',
} as const;

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

export const ALL_ADMIN_PERMISSIONS: readonly Permission[] = Object.values(PERMISSIONS);

export const USER_TYPE = { admin: 1, user: 2 } as const;
export type UserType = (typeof USER_TYPE)[keyof typeof USER_TYPE];

/** The spec's access rule: no requirement passes; otherwise at least one required entry must be held. */
export const hasAccess = (access: readonly string[], required: readonly string[] | undefined): boolean =>
  !required || required.length === 0 || required.some((code) => access.includes(code));
