import {
  DEFAULT_SITE_PROTECTION,
  PACKAGE_FEATURE_TEXT,
  PACKAGE_FEATURES,
  type PackageFeature,
  type PackageFeatureSet,
  type PackageUpdate,
  redirectsInUse,
  type SiteSettings,
} from '@rampart/contracts';

/**
 * The one place that says which package features a site's settings use. A new feature is one entry
 * in FEATURE_USES (and its name in PACKAGE_FEATURES): the field the refusal names, whether the site
 * uses it, and, where a default can turn it on, how to leave it off.
 */

/** A protection condition (of an ACL entry or a CC match), read loosely: its fields grow with features. */
export interface ConditionLike {
  field: string;
}

/** What the mapping reads of a site: its settings and the conditions of its ACL and CC rule groups. */
export interface SiteFeatureInput {
  settings: SiteSettings;
  conditions: readonly ConditionLike[];
}

const GEO_FIELDS = new Set(['country', 'asn']);

interface FeatureUse {
  /** The site field a refusal names. */
  field: string;
  uses: (site: SiteFeatureInput) => boolean;
  /** The settings with the feature off, for one that came from defaults (absent: it cannot come from them). */
  off?: (settings: SiteSettings) => SiteSettings;
  /** The body fields that turn it on explicitly. */
  sentWith: readonly string[];
}

const without = (settings: SiteSettings, field: string): SiteSettings =>
  Object.fromEntries(Object.entries(settings).filter(([key]) => key !== field)) as SiteSettings;

export const FEATURE_USES: Record<PackageFeature, FeatureUse> = {
  https: {
    field: 'https_listen',
    uses: ({ settings }) => settings.https_listen,
    off: (settings) => ({
      ...settings,
      http_listen: true,
      https_listen: false,
      force_https: false,
      hsts: false,
      http2: false,
    }),
    sentWith: ['https_listen', 'force_https', 'hsts', 'http2'],
  },
  waf: {
    field: 'protection/waf/mode',
    uses: ({ settings }) => (settings.protection?.waf.mode ?? 'off') !== 'off',
    off: (settings) => {
      const protection = settings.protection ?? DEFAULT_SITE_PROTECTION;
      return { ...settings, protection: { ...protection, waf: { ...protection.waf, mode: 'off' } } };
    },
    sentWith: ['protection'],
  },
  hotlink: {
    field: 'hotlink',
    uses: ({ settings }) => settings.hotlink?.enabled === true,
    off: (settings) => without(settings, 'hotlink'),
    sentWith: ['hotlink'],
  },
  url_auth: {
    field: 'url_auth',
    uses: ({ settings }) => settings.url_auth?.enabled === true,
    off: (settings) => without(settings, 'url_auth'),
    sentWith: ['url_auth'],
  },
  error_pages: {
    field: 'error_pages',
    uses: ({ settings }) => Object.values(settings.error_pages ?? {}).some((page) => Boolean(page)),
    off: (settings) => without(settings, 'error_pages'),
    sentWith: ['error_pages'],
  },
  redirects: {
    field: 'redirects',
    uses: ({ settings }) => redirectsInUse(settings.redirects),
    off: (settings) => without(settings, 'redirects'),
    sentWith: ['redirects'],
  },
  health_check: {
    field: 'health_check',
    uses: ({ settings }) => settings.health_check?.enabled === true,
    off: (settings) => without(settings, 'health_check'),
    sentWith: ['health_check'],
  },
  geo: {
    field: 'protection',
    uses: ({ conditions }) => conditions.some((condition) => GEO_FIELDS.has(String(condition.field))),
    // A default rule group with country conditions: the site starts on the system's default rules.
    off: (settings) => {
      const protection = settings.protection ?? DEFAULT_SITE_PROTECTION;
      return { ...settings, protection: { ...protection, rule_group_id: null, attack_rule_group_id: null } };
    },
    sentWith: ['protection'],
  },
};

/** The features a site uses, in PACKAGE_FEATURES order. */
export function featuresUsed(site: SiteFeatureInput): PackageFeature[] {
  return PACKAGE_FEATURES.filter((feature) => FEATURE_USES[feature].uses(site));
}

export const featureText = (feature: PackageFeature) => PACKAGE_FEATURE_TEXT[feature];

// ---- how a package stores them: the list of the features it forbids

export function forbiddenList(json: string): PackageFeature[] {
  const parsed = JSON.parse(json) as unknown;
  const known = new Set<string>(PACKAGE_FEATURES);
  return Array.isArray(parsed) ? parsed.filter((entry): entry is PackageFeature => known.has(String(entry))) : [];
}

export function featureSet(forbidden: readonly PackageFeature[]): PackageFeatureSet {
  return Object.fromEntries(
    PACKAGE_FEATURES.map((feature) => [feature, !forbidden.includes(feature)]),
  ) as PackageFeatureSet;
}

/** The forbidden list after a create or update body: a feature the body does not mention keeps its state. */
export function forbiddenAfter(current: readonly PackageFeature[], body: PackageUpdate): PackageFeature[] {
  return PACKAGE_FEATURES.filter((feature) => {
    const sent = body[feature];
    return sent === undefined ? current.includes(feature) : !sent;
  });
}
