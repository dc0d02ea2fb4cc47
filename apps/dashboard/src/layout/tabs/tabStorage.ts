import { APP_CONFIG } from '../../app/config.ts';
import type { OpenedTab } from './tabModel.ts';

/** Spec §4: opened tabs are persisted per user (by the uuid, the user's id) in local storage. */
export const tabsStorageKey = (owner: string) => `${APP_CONFIG.appId}-tabs-${owner}`;

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((item) => typeof item === 'string');

const isOpenedTab = (value: unknown): value is OpenedTab => {
  if (typeof value !== 'object' || value === null) return false;
  const tab = value as Record<string, unknown>;
  const meta = tab.meta as Record<string, unknown> | null | undefined;
  return (
    typeof tab.name === 'string' &&
    typeof tab.fullPath === 'string' &&
    tab.fullPath.startsWith('/') &&
    !tab.fullPath.startsWith('//') &&
    isStringRecord(tab.params) &&
    isStringRecord(tab.query) &&
    typeof meta === 'object' &&
    meta !== null &&
    typeof meta.title === 'string' &&
    typeof meta.closable === 'boolean' &&
    typeof meta.cache === 'boolean'
  );
};

export const readStoredTabs = (owner: string): OpenedTab[] => {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(tabsStorageKey(owner)) ?? '[]');
    return Array.isArray(stored) ? stored.filter(isOpenedTab) : [];
  } catch {
    return [];
  }
};

export const writeStoredTabs = (owner: string, tabs: readonly OpenedTab[]): void => {
  try {
    localStorage.setItem(tabsStorageKey(owner), JSON.stringify(tabs));
  } catch {
    // storage full or blocked: the tabs live until the page is closed
  }
};
