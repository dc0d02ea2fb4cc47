import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Site } from '@rampart/contracts';
import { cnameState, cnameTarget, type SiteCname } from '../cname/cname.repository.ts';
import type { DomainProofRow } from './domain-proofs.repository.ts';
import { presentDomainProofs } from './domain-proofs.service.ts';
import { type ListedJson, type ListedSettings, listedSettingsOf } from './listed-settings.ts';
import type { ListedSiteRow, SitePage } from './site-list.repository.ts';
import { presentedSettings } from './sites.repository.ts';

/**
 * The answer of GET /v1/sites written as the route's response schema would write it, byte for byte
 * (site-list-json.test.ts holds it to that), at a fraction of the cost: most of a listed site is its
 * settings, and their JSON is written once per stored text (listed-settings.ts) instead of on every
 * call. fast-json-stringify writes a site's required properties first, then its optional ones, each
 * in schema order: the required settings, the row's required fields, the optional settings, then the
 * owner and the proofs. The settings' two runs are written by serializers compiled for those
 * properties alone, the way the app compiles its response schemas (plugins/schema-compilers.ts); the
 * row's few fields are written here, and the module refuses to load if the schema's order changes.
 * A site's JSON up to its proofs is kept too, while its row and the list's context stay the same.
 */
interface JsonSchema {
  properties: Record<string, unknown>;
  required?: readonly string[];
}

const compileSerializer = SerializerSelector()({}, undefined);
const compile = (schema: object) =>
  compileSerializer({ method: 'GET', url: '/v1/sites', httpStatus: '200', schema }) as (value: unknown) => string;

/** The site's own properties (not its settings) as listedSiteJson writes them, in its two places. */
const ROW_REQUIRED = [
  'id',
  'user_id',
  'group_id',
  'line_group_id',
  'name',
  'cname',
  'cname_state',
  'created_at',
  'updated_at',
];
const ROW_OPTIONAL = ['user_account', 'domain_proof_required', 'domain_proofs'];

/** Properties in the order the schema's serializer writes them, in runs by where they come from. */
function runsOf(settings: JsonSchema, site: JsonSchema) {
  const required = new Set([...(settings.required ?? []), ...(site.required ?? [])]);
  const properties = [
    ...Object.entries(settings.properties).map(([key, schema]) => ({ key, schema, fromSettings: true })),
    ...Object.entries(site.properties).map(([key, schema]) => ({ key, schema, fromSettings: false })),
  ];
  const ordered = [
    ...properties.filter((property) => required.has(property.key)),
    ...properties.filter((property) => !required.has(property.key)),
  ];
  const runs: (typeof ordered)[] = [];
  for (const property of ordered) {
    const last = runs.at(-1);
    if (last?.[0]?.fromSettings === property.fromSettings) last.push(property);
    else runs.push([property]);
  }
  return runs.map((run) => ({
    fromSettings: run[0]?.fromSettings ?? false,
    keys: run.map((property) => property.key),
    schema: {
      type: 'object',
      properties: Object.fromEntries(run.map((property) => [property.key, property.schema])),
      required: run.filter((property) => required.has(property.key)).map((property) => property.key),
    },
  }));
}

const [SETTINGS_SCHEMA, SITE_SCHEMA] = Site.allOf as unknown as [JsonSchema, JsonSchema];
const RUNS = runsOf(SETTINGS_SCHEMA, SITE_SCHEMA);
const [HEAD, ROW, TAIL, OWNER] = RUNS;
if (
  RUNS.length !== 4 ||
  !HEAD?.fromSettings ||
  ROW?.keys.join() !== ROW_REQUIRED.join() ||
  !TAIL?.fromSettings ||
  OWNER?.keys.join() !== ROW_OPTIONAL.join()
) {
  throw new Error(
    `site-list-json.ts writes another Site than the schema's: ${JSON.stringify(RUNS.map((run) => run.keys))}`,
  );
}
/** An object's properties as JSON without its braces. */
const properties = (serialize: (value: unknown) => string) => (value: unknown) => serialize(value).slice(1, -1);
const writeHead = properties(compile(HEAD.schema));
const writeTail = properties(compile(TAIL.schema));

/**
 * A site's proofs as presentDomainProofs makes them: plain objects of strings and nulls, keyed in the
 * schema's order, all of whose properties are required. For those JSON.stringify writes what the
 * schema's serializer writes, several times faster; checked here on a sample.
 */
const PROOF_SCHEMA = (SITE_SCHEMA.properties.domain_proofs as { items: JsonSchema }).items;
const [sampleProof] = presentDomainProofs({ user_id: 1, domains: ['sample.example.com'] }, new Map(), 1);
if (
  Object.keys(sampleProof ?? {}).join() !== Object.keys(PROOF_SCHEMA.properties).join() ||
  PROOF_SCHEMA.required?.join() !== Object.keys(PROOF_SCHEMA.properties).join()
) {
  throw new Error('site-list-json.ts: presentDomainProofs no longer writes the DomainProof schema in its order');
}

/** The settings' two runs, written once per stored text. */
function listedJson(listed: ListedSettings): ListedJson {
  if (listed.json === undefined) {
    const settings = presentedSettings(listed.settings);
    listed.json = { head: writeHead(settings), tail: writeTail(settings) };
  }
  return listed.json;
}

/** The proofs of a page's sites (domainProofsOfSites) and who is asking: the owner alone sees the tokens. */
export interface ListedProofs {
  required: boolean;
  proofs: ReadonlyMap<string, DomainProofRow>;
  viewerId: number;
}

const DAY_MS = 86_400_000;
/** Past the year 9999 toISOString writes six-digit years. */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_800_000;
const dayPrefixes = new Map<number, string>();
const TWO_DIGITS = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, value) => String(value).padStart(3, '0'));

/**
 * Date#toISOString, which a list calls twice a site: the day's part is kept (a page's sites were
 * mostly made on a few days) and the time of day written out. Times before 1970 or after 9999, or not
 * whole milliseconds, go to toISOString itself.
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < LAST_FOUR_DIGIT_YEAR_MS && Number.isInteger(ms))) return new Date(ms).toISOString();
  const inDay = ms % DAY_MS;
  const day = ms - inDay;
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day).toISOString().slice(0, 11);
    if (dayPrefixes.size >= 4096) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  const seconds = Math.floor(inDay / 1000);
  const hours = TWO_DIGITS[Math.floor(seconds / 3600)];
  return `${prefix}${hours}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[inDay % 1000]}Z`;
}

/** A string as JSON: what the schema's serializer writes for it too. */
const text = (value: string) => JSON.stringify(value);

/** The site up to its proofs: kept while the row and the context it is written from stay the same. */
function siteJson(row: ListedSiteRow, json: ListedJson, cname: SiteCname, required: boolean): string {
  const from = [
    row.user_id,
    row.group_id,
    row.line_group_id,
    row.name,
    row.created_at,
    row.updated_at,
    row.user_account,
    cname.domain,
    cname.defaultLineGroup,
    required,
  ];
  const kept = json.site;
  if (kept !== undefined && from.every((value, index) => value === kept.from[index])) return kept.json;
  const lineGroupId = row.line_group_id ?? null;
  // Joined, so that what is kept is one flat string rather than a tree of the pieces it was made from.
  const written = [
    `{${json.head}`,
    `"id":${row.id}`,
    `"user_id":${row.user_id}`,
    `"group_id":${row.group_id}`,
    `"line_group_id":${lineGroupId}`,
    `"name":${text(row.name)}`,
    `"cname":${text(cnameTarget(row.id, cname.domain))}`,
    `"cname_state":"${cnameState(lineGroupId, cname)}"`,
    `"created_at":"${isoTime(row.created_at)}"`,
    `"updated_at":"${isoTime(row.updated_at)}"`,
    json.tail,
    `"user_account":${row.user_account === null ? 'null' : text(row.user_account)}`,
    `"domain_proof_required":${required}`,
    '"domain_proofs":',
  ].join(',');
  json.site = { from, json: written };
  return json.site.json;
}

function listedSiteJson(row: ListedSiteRow, cname: SiteCname, proofs: ListedProofs): string {
  const listed = listedSettingsOf(row.id, row.settings);
  const json = listedJson(listed);
  const site = { user_id: row.user_id, domains: listed.settings.domains };
  let domainProofs: string;
  if (proofs.proofs.size === 0) {
    json.unproved ??= JSON.stringify(presentDomainProofs(site, proofs.proofs, proofs.viewerId));
    domainProofs = json.unproved;
  } else domainProofs = JSON.stringify(presentDomainProofs(site, proofs.proofs, proofs.viewerId));
  return `${siteJson(row, json, cname, proofs.required)}${domainProofs}}`;
}

/** The whole answer: the envelope, the page's sites with their domain proofs, and the total. */
export function siteListJson(page: SitePage, proofs: ReadonlyMap<string, DomainProofRow>, viewerId: number): string {
  const listed: ListedProofs = { required: page.domainProofRequired, proofs, viewerId };
  let list = '';
  for (const row of page.rows) {
    const site = listedSiteJson(row, page.cname, listed);
    list += list === '' ? site : `,${site}`;
  }
  const capped = page.capped ? ',"total_capped":true' : '';
  return `{"code":0,"msg":"ok","data":{"list":[${list}],"total":${page.total}${capped}}}`;
}
