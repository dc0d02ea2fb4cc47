import { APP_CONFIG } from '../../../app/config.ts';

/** Per signed-in user, so that two accounts on one browser do not see each other's site ids. */
export const lastSiteKey = (userId: number | undefined): string =>
  `${APP_CONFIG.appId}-rule-preview-site-${userId ?? 0}`;

/** The site the user last previewed a match or rule group on, if any. */
export const readLastSite = (userId: number | undefined): number | undefined => {
  try {
    const stored = Number(localStorage.getItem(lastSiteKey(userId)));
    return Number.isInteger(stored) && stored > 0 ? stored : undefined;
  } catch {
    return undefined;
  }
};

export const writeLastSite = (userId: number | undefined, siteId: number): void => {
  try {
    localStorage.setItem(lastSiteKey(userId), String(siteId));
  } catch {
    // storage full or blocked: the picker starts empty next time
  }
};
