import {
  ERROR_PAGE_MAX_LENGTH,
  ERROR_PAGE_STATUSES,
  type ErrorPageStatus,
  type SiteErrorPages,
} from '@rampart/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { FieldPath } from '../edgeRules.ts';

/** One status's row: whether the site answers with its own page, and that page (kept while switched off). */
export interface ErrorPageRow {
  enabled: boolean;
  html: string;
}
export type ErrorPagesValues = Record<ErrorPageStatus, ErrorPageRow>;

/** The stored pages; a site saved before they existed has none of its own. */
export const storedErrorPages = (pages: SiteErrorPages | undefined): SiteErrorPages => pages ?? {};

export const errorPagesValues = (pages: SiteErrorPages | undefined): ErrorPagesValues => {
  const stored = storedErrorPages(pages);
  return Object.fromEntries(
    ERROR_PAGE_STATUSES.map((status) => [
      status,
      { enabled: stored[status] !== undefined, html: stored[status] ?? '' },
    ]),
  ) as ErrorPagesValues;
};

/** The whole object PUT /v1/sites/{id} takes: the switched-on statuses only, each page as typed. */
export const errorPagesBody = (values: ErrorPagesValues): SiteErrorPages => {
  const pages: SiteErrorPages = {};
  for (const status of ERROR_PAGE_STATUSES) {
    const row = values[status];
    if (row?.enabled) pages[status] = row.html ?? '';
  }
  return pages;
};

const STATUSES: ReadonlySet<string> = new Set(ERROR_PAGE_STATUSES);

/**
 * The section's field for a server-named field: `error_pages/404` is the 404 page's box. A message
 * about the whole object names no field of the form (an empty path), so it shows as the usual popup.
 */
export const errorPagesFieldPath = (name: FieldPath): FieldPath => {
  const status = String(name[1]);
  return name.length > 1 && STATUSES.has(status) ? ['error_pages', status, 'html'] : [];
};

/** Form rules from the contract's limits. */
export const errorPageRules = (t: TFunction) => ({
  html: [
    { required: true, whitespace: true, message: t('sites.errorPages.rule.required') },
    { max: ERROR_PAGE_MAX_LENGTH, message: t('sites.errorPages.rule.max', { max: ERROR_PAGE_MAX_LENGTH }) },
  ] satisfies Rule[],
});
