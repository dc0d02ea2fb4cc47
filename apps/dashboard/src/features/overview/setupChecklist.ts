/** GET /v1/admin/setup: what a fresh installation still needs; `done: null` is an area the admin does not hold. */
export type SetupKey = 'node' | 'line_group' | 'cname_domain' | 'package' | 'payment' | 'smtp';

export interface SetupItem {
  key: SetupKey;
  done: boolean | null;
  path: string;
}

export interface AdminSetup {
  items: SetupItem[];
}

export type HeldSetupItem = SetupItem & { done: boolean };

/** The items this admin may act on; the checklist shows while any of them is not done, and never when none is held. */
export const checklistItems = (setup: AdminSetup | undefined): HeldSetupItem[] | null => {
  const held = (setup?.items ?? []).filter((item): item is HeldSetupItem => item.done !== null);
  return held.some((item) => !item.done) ? held : null;
};
