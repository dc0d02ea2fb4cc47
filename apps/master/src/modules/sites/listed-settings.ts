import type { SiteSettings } from '@rampart/contracts';

/** What site-list-json.ts keeps of a listed site: its settings' JSON, and the site as last written. */
export interface ListedJson {
  /** The settings' two runs of properties. */
  head: string;
  tail: string;
  /** The site up to its proofs, with the row and the context it was written from. */
  site?: { from: readonly unknown[]; json: string };
  /** Its proofs while none of its domains has one (the same for every viewer). */
  unproved?: string;
}

/** A site's stored settings as lists use them: parsed once, and their part of the site's JSON written once. */
export interface ListedSettings {
  readonly settings: SiteSettings;
  json?: ListedJson;
}

/**
 * Settings parsed once per site and stored text, for lists: the pages people keep asking for (the
 * first of their sites) parse nothing again, and a site changed is a different text. Kept by site id,
 * which is cheaper to look up than a text of hundreds of characters. The objects are frozen: every
 * list shares them, and only the serializer reads them. Forgotten all at once past the limit.
 */
const listedSettings = new Map<number, ListedSettings & { readonly text: string }>();
const LISTED_SETTINGS_MAX = 4096;

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

export function listedSettingsOf(siteId: number, text: string): ListedSettings {
  let listed = listedSettings.get(siteId);
  if (listed?.text !== text) {
    listed = { text, settings: deepFreeze(JSON.parse(text) as SiteSettings) };
    if (listedSettings.size >= LISTED_SETTINGS_MAX) listedSettings.clear();
    listedSettings.set(siteId, listed);
  }
  return listed;
}
