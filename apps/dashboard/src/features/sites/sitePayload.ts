import { type CreateSiteBody, type Origin, type Site, SiteSettings, type UpdateSiteBody } from '@rampart/contracts';
import { asciiDomain, domainLines, type FieldPath } from './edgeRules.ts';
import {
  type ErrorPagesValues,
  errorPagesBody,
  errorPagesFieldPath,
  errorPagesValues,
  storedErrorPages,
} from './error-pages/errorPageValues.ts';
import {
  type HealthCheckValues,
  healthCheckBody,
  healthCheckFieldPath,
  healthCheckValues,
} from './health-check/healthCheckValues.ts';
import {
  type HotlinkValues,
  hotlinkBody,
  hotlinkFieldPath,
  hotlinkValues,
  storedHotlink,
} from './hotlink/hotlinkValues.ts';
import {
  type RedirectsValues,
  redirectsBody,
  redirectsFieldPath,
  redirectsValues,
  storedRedirects,
} from './redirects/redirectValues.ts';
import {
  storedUrlAuth,
  type UrlAuthValues,
  urlAuthBody,
  urlAuthFieldPath,
  urlAuthValues,
} from './url-auth/urlAuthValues.ts';

/** An origins editor row; numbers are undefined while the field is empty. */
export interface OriginRow {
  address?: string;
  port?: number | null;
  weight?: number | null;
  backup?: boolean;
}

export const NEW_ORIGIN: OriginRow = { address: '', port: 80, weight: 1, backup: false };

/** The add-site drawer's values. */
export interface SiteDraft {
  domainsText?: string;
  origins?: OriginRow[];
  group_id?: number | null;
  name?: string;
}

/**
 * The edit page's values: the site's settings, domains, referer hosts and signed paths as one per
 * line, and a row per error page status.
 */
export type SiteFormValues = Omit<
  SiteSettings,
  'domains' | 'origins' | 'hotlink' | 'url_auth' | 'error_pages' | 'redirects' | 'health_check'
> & {
  domainsText: string;
  origins: OriginRow[];
  hotlink: HotlinkValues;
  url_auth: UrlAuthValues;
  error_pages: ErrorPagesValues;
  redirects: RedirectsValues;
  health_check: HealthCheckValues;
  name: string;
  group_id: number | null;
  /** The site's line group (null: the default group's); only an administrator's form shows it. */
  line_group_id?: number | null;
};

export const toOrigins = (rows: readonly OriginRow[] | undefined): Origin[] =>
  (rows ?? []).map((row) => ({
    address: (row.address ?? '').trim(),
    port: row.port ?? 0,
    weight: row.weight ?? 1,
    backup: row.backup === true,
  }));

const toDomains = (text: string | undefined): string[] => domainLines(text).map(asciiDomain);

/** POST /v1/sites from the drawer: domains and origins, with a group and name only when set. */
export const createSiteBody = (draft: SiteDraft): CreateSiteBody => {
  const body: CreateSiteBody = { domains: toDomains(draft.domainsText), origins: toOrigins(draft.origins) };
  if (draft.group_id) body.group_id = draft.group_id;
  const name = draft.name?.trim();
  if (name) body.name = name;
  return body;
};

/** The editable values of a site: its settings, name and group (not its id, owner, CNAME or times). */
export const siteFormValues = (site: Site): SiteFormValues => {
  const settings = Object.fromEntries(
    Object.keys(SiteSettings.properties).map((key) => [key, site[key as keyof SiteSettings]]),
  ) as SiteSettings;
  const { domains, hotlink, url_auth, error_pages, redirects, health_check, ...rest } = settings;
  return {
    ...rest,
    hotlink: hotlinkValues(hotlink),
    url_auth: urlAuthValues(url_auth),
    error_pages: errorPagesValues(error_pages),
    redirects: redirectsValues(redirects),
    health_check: healthCheckValues(health_check),
    name: site.name,
    group_id: site.group_id,
    line_group_id: site.line_group_id,
    domainsText: domains.join('\n'),
  };
};

/**
 * PUT /v1/sites/{id}: only the fields whose value differs from the stored site (hotlink, signed URLs,
 * error pages and redirects each as a whole).
 */
export const changedSiteFields = (site: Site, values: Partial<SiteFormValues>): UpdateSiteBody => {
  const { domainsText, origins, hotlink, url_auth, error_pages, redirects, health_check, ...rest } = values;
  const next: Record<string, unknown> = { ...rest };
  if (domainsText !== undefined) next.domains = toDomains(domainsText);
  if (origins !== undefined) next.origins = toOrigins(origins);
  if (hotlink !== undefined) next.hotlink = hotlinkBody(hotlink);
  if (url_auth !== undefined) next.url_auth = urlAuthBody(url_auth);
  if (error_pages !== undefined) next.error_pages = errorPagesBody(error_pages);
  if (redirects !== undefined) next.redirects = redirectsBody(redirects);
  if (health_check !== undefined) next.health_check = healthCheckBody(health_check);
  const stored = {
    ...site,
    hotlink: storedHotlink(site.hotlink),
    url_auth: storedUrlAuth(site.url_auth),
    error_pages: storedErrorPages(site.error_pages),
    // In the body's key order, so a stored setting read back in another order is not a change.
    redirects: redirectsBody(storedRedirects(site.redirects)),
    health_check: healthCheckBody(healthCheckValues(site.health_check)),
  } as unknown as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) continue;
    if (JSON.stringify(value) !== JSON.stringify(stored[key])) changed[key] = value;
  }
  return changed as UpdateSiteBody;
};

/**
 * The form field for a server-named field: the domains list is one text box, and so is each hotlink
 * host list and the signed paths; an error page's message goes to its status's box.
 */
export const siteFieldPath = (name: FieldPath): FieldPath => {
  if (name[0] === 'domains') return ['domainsText'];
  if (name[0] === 'hotlink') return hotlinkFieldPath(name);
  if (name[0] === 'url_auth') return urlAuthFieldPath(name);
  if (name[0] === 'error_pages') return errorPagesFieldPath(name);
  if (name[0] === 'redirects') return redirectsFieldPath(name);
  if (name[0] === 'health_check') return healthCheckFieldPath(name);
  return name;
};
