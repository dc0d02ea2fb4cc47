import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasAccess, ROUTES, type RouteRecord } from '@rampart/contracts';
import type { Page, Request } from 'playwright-core';

/**
 * What the page check and the screenshots look at: every console page a role may open, and what a
 * reviewer would flag on one of them in a given language (raw locale keys, the other language's
 * words, console errors, table headers that wrap mid-word or are cut).
 */

export type Language = 'zh-CN' | 'en-US';
export const CHECK_LANGUAGES: readonly Language[] = ['zh-CN', 'en-US'];

export interface Viewer {
  type: 1 | 2;
  access: readonly string[];
}

/** The ids the pages with a parameter are opened with. */
export interface PageParams {
  siteId: number;
  streamId: number;
  lineGroupId: number;
}

const allRecords = (records: readonly RouteRecord[]): RouteRecord[] =>
  records.flatMap((record) => [record, ...allRecords(record.children ?? [])]);

const opens = (record: RouteRecord, viewer: Viewer) =>
  (!record.types || record.types.some((type) => type === viewer.type)) && hasAccess(viewer.access, record.auth);

/**
 * The paths of every page the viewer may open, hidden ones included, from the route catalogue of
 * packages/contracts (a group's own path only redirects to its first page and is left out).
 */
export function pagePaths(viewer: Viewer, params: PageParams): string[] {
  const paths: string[] = [];
  const walk = (records: readonly RouteRecord[]) => {
    for (const record of records) {
      if (!opens(record, viewer)) continue;
      if (record.children) walk(record.children);
      else paths.push(record.path);
    }
  };
  walk(ROUTES);
  return paths.map((path) =>
    path
      .replace('/site/list/:id', `/site/list/${params.siteId}`)
      .replace('/stream/list/:id', `/stream/list/${params.streamId}`)
      .replace('/node/line-group/line/:id', `/node/line-group/line/${params.lineGroupId}`),
  );
}

/** Every route path of the catalogue: a test that a new page is covered. */
export const catalogueSize = (): number => allRecords(ROUTES).filter((record) => !record.children).length;

export const PUBLIC_PATHS = ['/login', '/register', '/forget-password'] as const;

const DASHBOARD_SRC = resolve(import.meta.dirname, '../../apps/dashboard/src');

type Tree = { readonly [key: string]: string | Tree };
const leafKeys = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );

export interface LocaleKeys {
  /** Every key as t() is called with it (plural suffixes taken off). */
  keys: Set<string>;
  /** The first segments of the keys (`sites`, `route`, …): a dotted word starting with one is a key too. */
  namespaces: Set<string>;
}

/** Reads every en-US locale file of the dashboard (every folder has one, with the same keys as zh-CN). */
export async function dashboardLocaleKeys(): Promise<LocaleKeys> {
  const files = (await readdir(DASHBOARD_SRC, { recursive: true })).filter((file) =>
    /(^|\/)locales\/en-US\.ts$/.test(file),
  );
  const keys = new Set<string>();
  for (const file of files) {
    const module = (await import(pathToFileURL(join(DASHBOARD_SRC, file)).href)) as Record<string, Tree>;
    for (const tree of Object.values(module)) {
      for (const key of leafKeys(tree)) keys.add(key.replace(/_(zero|one|two|few|many|other)$/, ''));
    }
  }
  const namespaces = new Set([...keys].map((key) => key.split('.')[0] ?? ''));
  return { keys, namespaces };
}

/**
 * Latin words a zh-CN page may show. Each entry says why; anything else in Latin letters on a zh-CN
 * page is a finding unless it is data the test typed, a domain, an address, an id or a code.
 */
const LATIN_ALLOWED = new Map<string, string>([
  ['Rampart', 'the product name'],
  ['agent', 'the product’s name for its edge program'],
  ...['KB', 'MB', 'GB', 'TB', 'PB', 'ms', 'bps', 'Kbps', 'Mbps', 'Gbps', 'UTC'].map(
    (unit) => [unit, 'a unit or the time zone'] as [string, string],
  ),
  ...['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'Host', 'http', 'https'].map(
    (word) => [word, 'an HTTP method, header name or URL scheme'] as [string, string],
  ),
  ...['CNAME', 'HTTPS', 'HTTP', 'WAF', 'CC', 'ACL', 'API', 'DNS', 'SMTP', 'SMS', 'URL', 'IP', 'TCP', 'UDP', 'ID'].map(
    (term) =>
      [term, 'a technical term Chinese consoles keep in Latin letters (the brief’s list, with TCP, UDP, ID)'] as [
        string,
        string,
      ],
  ),
  ...[
    'TTL',
    'AAAA',
    'TXT',
    'CIDR',
    'CPU',
    'CSV',
    'JSON',
    'HTML',
    'MIME',
    'HMAC',
    'PROXY',
    'ACME',
    'Gzip',
    'nginx',
    'Webhook',
    'Logo',
  ].map((term) => [term, 'a protocol, format or program name Chinese admins read as is'] as [string, string]),
  ...['ModSecurity', 'OWASP', 'DNSPod', 'PowerDNS', 'Cloudflare', 'QQ'].map(
    (name) => [name, 'the name of another product or project'] as [string, string],
  ),
  ...['GeoIP', 'MaxMind', 'mmdb', 'ISO', 'ASN'].map(
    (term) =>
      [term, 'the IP-to-country database, its format and file type, the country-code standard, AS numbers'] as [
        string,
        string,
      ],
  ),
  ...['png', 'css', 'js', 'CSS', 'JS', 'PDF'].map(
    (type) => [type, 'a file type the WAF help text cites'] as [string, string],
  ),
]);

/** Each language's own name, shown in that language wherever languages are listed. */
const LANGUAGE_NAMES = ['简体中文', 'English'];

/** Dotted words that look like locale keys but are not. */
const KEY_LIKE_ALLOWED = new Map<string, string>([['sites.update', 'an audit log action code, cited as an example']]);

export interface Finding {
  path: string;
  role: string;
  language: Language;
  what: string;
}

export interface PageText {
  /** Visible text, one entry per text node or placeholder, outside inputs, code and canvases. */
  texts: string[];
  /** Table header cells whose text is cut or breaks inside a word. */
  headers: { text: string; problem: string }[];
}

/** Reads what the user sees, in the page (no imports: the function runs in the browser). */
const readPage = (): PageText => {
  const texts: string[] = [];
  // Inputs, code and the chosen values of a multiple select hold what the user typed or picked.
  const skipped =
    'script, style, noscript, textarea, input, code, pre, [contenteditable="true"], canvas, svg, .ant-select-multiple .ant-select-selection-item, .ant-select-multiple .ant-select-content-item';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? '';
    const parent = node.parentElement;
    if (!text || !parent || parent.closest(skipped)) continue;
    if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    texts.push(text);
  }
  for (const field of document.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]')) {
    if (field.placeholder && field.checkVisibility()) texts.push(field.placeholder);
  }
  const headers: { text: string; problem: string }[] = [];
  for (const cell of document.querySelectorAll<HTMLElement>('th')) {
    const text = cell.innerText.trim();
    if (!text || !cell.checkVisibility()) continue;
    const title = cell.querySelector<HTMLElement>('.ant-table-column-title') ?? cell;
    if (cell.scrollWidth > cell.clientWidth + 1 || title.scrollWidth > title.clientWidth + 1) {
      headers.push({ text, problem: `cut (${title.scrollWidth}px of text in ${title.clientWidth}px)` });
      continue;
    }
    // A word laid over two lines: each word of the header measured on its own.
    const range = document.createRange();
    const lineTops = new Set<number>();
    const split: string[] = [];
    const nodes = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = nodes.nextNode(); node; node = nodes.nextNode()) {
      const value = node.textContent ?? '';
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0) lineTops.add(Math.round(rect.top));
      // CJK has no spaces: a run of CJK characters is one word for this purpose.
      for (const match of value.matchAll(/[A-Za-z0-9]+|[\u3400-\u9fff]+/g)) {
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => rect.top));
        if (tops.size > 1) split.push(match[0]);
      }
    }
    if (split.length > 0) headers.push({ text, problem: `breaks inside ${split.join(', ')} (${lineTops.size} lines)` });
  }
  return { texts, headers };
};

const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
// Technical tokens: e-mail addresses, URLs, paths, domains and IPs, codes with _ or : or digits.
const TECHNICAL = [
  /\S+@\S+\.\S+/g,
  /\bhttps?:\/\/\S*/g,
  // A status code with its reason phrase (400 Bad Request), a header name (X-Rampart-Signature), a MIME type or port/protocol.
  /\b[1-5]\d\d( [A-Z][a-z]+)+/g,
  /\b[A-Z]\w*(-[A-Z]\w*)+\b/g,
  /\b[\w.+-]+\/[\w.+-]+\b/g,
  /<!?[\w\s]+>/g,
  // The error code the console puts after a server message ("… - forbidden").
  / - [a-z][a-z_]*$/g,
  /(^|\s)\/[\w./:{}-]*/g,
  /\b[\w-]+(\.[\w-]+)+\b/g,
  /\b[0-9a-f:]*:[0-9a-f:]+\b/gi,
  /\b\w*[_:]\w*\b/g,
  /\b\w*\d\w*\b/g,
];

const escaped = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The text without the data it shows, each value taken out as a whole word ("Web" stays in "Webhook"). */
const withoutData = (text: string, data: readonly string[]) =>
  [...data, ...LANGUAGE_NAMES]
    .filter((value) => value !== '')
    .reduce(
      (rest, value) => rest.replace(new RegExp(`(?<![A-Za-z0-9])${escaped(value)}(?![A-Za-z0-9])`, 'g'), ' '),
      text,
    );

export interface CheckContext {
  path: string;
  role: string;
  language: Language;
  locale: LocaleKeys;
  /** What the test typed or made (usernames, domains, package names): shown as typed, in any language. */
  data: readonly string[];
}

/** The untranslated text and table headers of the page as it is now. */
export async function textFindings(page: Page, context: CheckContext): Promise<Finding[]> {
  const { path, role, language, locale, data } = context;
  const seen = await page.evaluate(readPage);
  const problems = new Set<string>();
  for (const raw of seen.texts) {
    const text = withoutData(raw, data);
    for (const token of text.match(/\b[a-z][\w-]*(\.[\w-]+)+\b/g) ?? []) {
      if (KEY_LIKE_ALLOWED.has(token)) continue;
      if (locale.keys.has(token) || locale.namespaces.has(token.split('.')[0] ?? '')) {
        problems.add(`raw locale key "${token}" in "${raw.slice(0, 80)}"`);
      }
    }
    if (language === 'en-US' && CJK.test(text)) problems.add(`Chinese text in en-US: "${raw.slice(0, 80)}"`);
    if (language === 'zh-CN') {
      const plain = TECHNICAL.reduce((rest, pattern) => rest.replace(pattern, ' '), text);
      const words = (plain.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []).filter(
        (word) => word.length > 1 && !LATIN_ALLOWED.has(word),
      );
      if (words.length > 0) problems.add(`English in zh-CN: ${words.join(' ')} in "${raw.slice(0, 80)}"`);
    }
  }
  for (const header of seen.headers) problems.add(`table header "${header.text}" ${header.problem}`);
  return [...problems].map((what) => ({ path, role, language, what }));
}

/** Console errors and page errors of a page, from now on; `take()` hands over what came since the last call. */
export function watchConsole(page: Page): { take: () => string[] } {
  let errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const where = message.location().url;
      errors.push(
        `console error: ${message.text().slice(0, 200)}${where ? ` (${where.replace(/^.*\/\/[^/]+/, '')})` : ''}`,
      );
    }
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message.slice(0, 200)}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && response.url().includes('/v1/')) {
      errors.push(`HTTP ${response.status()} from ${response.request().method()} ${new URL(response.url()).pathname}`);
    }
  });
  return {
    take: () => {
      const taken = errors;
      errors = [];
      return taken;
    },
  };
}

const SETTLE_TIMEOUT_MS = 30_000;
const BUSY = '.ant-spin-spinning, .ant-skeleton-active, .ant-table-placeholder .ant-spin, [aria-busy="true"]';

const apiRequests = new WeakMap<Page, Set<Request>>();

/**
 * The page's /v1 requests in flight, counted from the first call on: a navigation inside the app
 * starts the next page's requests before its settle begins, so the count must already be running.
 */
export function trackApiRequests(page: Page): ReadonlySet<Request> {
  const known = apiRequests.get(page);
  if (known) return known;
  const inFlight = new Set<Request>();
  page.on('request', (request) => {
    if (request.url().includes('/v1/')) inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  apiRequests.set(page, inFlight);
  return inFlight;
}

/**
 * Waits until the page has drawn its content: the console chrome (or a public page's form) is there,
 * nothing spins, no /v1 request is in flight, and the text has stopped changing between two looks.
 */
export async function settle(page: Page, { publicPage = false } = {}): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  const ready = publicPage ? page.locator('form').first() : page.getByTestId('page-content');
  const inFlight = trackApiRequests(page);
  await ready.waitFor({ timeout: SETTLE_TIMEOUT_MS });
  let previous = '';
  for (;;) {
    const busy = await page.locator(BUSY).evaluateAll((nodes) => nodes.filter((node) => node.checkVisibility()).length);
    const text = await page.evaluate(() => document.body.innerText);
    if (busy === 0 && inFlight.size === 0 && text === previous && text.length > 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `${page.url()} did not settle within ${SETTLE_TIMEOUT_MS} ms (${busy} spinning, ${inFlight.size} requests)`,
      );
    }
    previous = text;
    await page.waitForTimeout(250);
  }
}

/** The findings as the markdown table the lead routes fixes from. */
export function findingsMarkdown(findings: readonly Finding[], heading: string): string {
  const rows = findings.map(
    (finding) => `| ${finding.path} | ${finding.role} | ${finding.language} | ${finding.what.replaceAll('|', '\\|')} |`,
  );
  return [
    `# ${heading}`,
    '',
    `${findings.length} finding(s), written ${new Date().toISOString()}.`,
    '',
    '| Page | Role | Language | What |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
