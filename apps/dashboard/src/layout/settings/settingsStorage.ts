import { APP_CONFIG } from '../../app/config.ts';
import { COOKIE_DAYS, readCookie, writeCookie } from '../../shared/session/cookies.ts';
import type { LayoutSettings } from './layoutSettings.ts';

/** Spec §9: settings are stored keyed by the app id, in a cookie (1 day) and in local storage. */
export const SETTINGS_KEY = `${APP_CONFIG.appId}-layout-settings`;

export interface StoredSettings {
  layout: LayoutSettings;
  watermark: boolean;
}

const parse = (raw: string | null): unknown => {
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
};

/** The cookie is the fresher copy while it lives; local storage keeps the settings after it expires. */
export const readStoredSettings = (): unknown =>
  parse(readCookie(SETTINGS_KEY)) ?? parse(localStorage.getItem(SETTINGS_KEY));

export const writeStoredSettings = (settings: StoredSettings): void => {
  const json = JSON.stringify(settings);
  writeCookie(SETTINGS_KEY, json, COOKIE_DAYS);
  try {
    localStorage.setItem(SETTINGS_KEY, json);
  } catch {
    // storage full or blocked: the cookie still holds the settings for a day
  }
};
