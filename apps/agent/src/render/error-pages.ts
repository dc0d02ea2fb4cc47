import {
  type EdgeErrorPages,
  ERROR_PAGE_LANGUAGES,
  ERROR_PAGE_STATUSES,
  type ErrorPageLanguage,
  type ErrorPageStatus,
} from '@rampart/contracts';
import type { RenderedFile } from './types.ts';

/**
 * The fleet's error pages (/config/error) as files of the tree, `errors/<language>/<status>.html`:
 * bodies never enter the configuration. nginx sends its own errors (an origin that is down, ...) to
 * an internal location per status; the Lua side answers those, the page of names no site serves and
 * the WAF's page with them, in the visitor's language.
 */

/** Prefix of the internal locations that serve the pages; a visitor asking for it gets a 404. */
export const ERROR_PAGE_PREFIX = '/.rampart-errors/';

/** A status with a page (in at least one language). */
export interface ErrorPageRoute {
  status: ErrorPageStatus;
}

export interface ErrorPageTree {
  files: RenderedFile[];
  routes: ErrorPageRoute[];
  /** For routes.json: status → language → path relative to the tree. */
  lua: Partial<Record<ErrorPageStatus, Partial<Record<ErrorPageLanguage, string>>>>;
}

export function errorPageTree(pages: EdgeErrorPages): ErrorPageTree {
  const files: RenderedFile[] = [];
  const routes: ErrorPageRoute[] = [];
  const lua: ErrorPageTree['lua'] = {};
  const languages = [pages.default_language, ...ERROR_PAGE_LANGUAGES.filter((l) => l !== pages.default_language)];
  for (const status of ERROR_PAGE_STATUSES) {
    const byLanguage = pages.pages[status];
    if (!byLanguage) continue;
    const present = languages.filter((language) => typeof byLanguage[language] === 'string');
    if (present.length === 0) continue;
    const paths: Partial<Record<ErrorPageLanguage, string>> = {};
    for (const language of present) {
      const path = `errors/${language}/${status}.html`;
      files.push({ path, content: byLanguage[language] as string, mode: 0o644 });
      paths[language] = path;
    }
    lua[status] = paths;
    routes.push({ status });
  }
  return { files, routes, lua };
}

/** The statuses nginx answers with the pages (the WAF page is the Lua side's). */
export const nginxStatuses = (routes: ErrorPageRoute[]) => routes.filter((route) => route.status !== 'waf');

/** `error_page` lines for a server or a location that sets error_page itself (`except` is its own). */
export function errorPageLines(routes: ErrorPageRoute[], except: string[] = []): string[] {
  return nginxStatuses(routes)
    .filter((route) => !except.includes(route.status))
    .map((route) => `error_page ${route.status} ${ERROR_PAGE_PREFIX}${route.status};`);
}

/**
 * The internal locations that answer them, keeping the status: the pages are read once by the nginx
 * master with routes.json (workers cannot read the config tree) and answered by the Lua side.
 */
export function errorPageLocations(routes: ErrorPageRoute[]): string[] {
  return nginxStatuses(routes).flatMap((route) => [
    `location = ${ERROR_PAGE_PREFIX}${route.status} {`,
    '    internal;',
    `    content_by_lua_block { rampart_respond.error_page("${route.status}") }`,
    '}',
    '',
  ]);
}
