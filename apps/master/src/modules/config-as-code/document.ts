import { CustomerDocument, SYSTEM_REF_PREFIX } from '@rampart/contracts';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { AppError, invalidParam } from '../../errors.ts';
import type { CustomerState } from './state.ts';

/** `/sites/2/settings/domains/0` as the document's path: `sites[2].settings.domains[0]`. */
export function documentPath(pointer: string): string {
  let path = '';
  for (const part of pointer.split('/').filter((segment) => segment !== '')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(key) ? `[${key}]` : path === '' ? key : `.${key}`;
  }
  return path;
}

/**
 * A single call's field (`protection/rule_group_id`, `records/2/ip`) under `base`, the object's path
 * in the document, with the call's names as the document writes them (`renamed`).
 */
export function fieldIn(base: string, field: string, renamed: Readonly<Record<string, string>> = {}): string {
  let path = base;
  for (const part of field.replace(/^body\//, '').split(/[/.]/)) {
    if (part === '') continue;
    path += /^\d+$/.test(part) ? `[${part}]` : `.${renamed[part] ?? part}`;
  }
  return path;
}

/**
 * A service's refusal (`records/2/ip: …`) under the object's path in the document
 * (`line_groups[0].lines[2].ip: …`); a refusal that names no field is put under the object.
 */
export function refusalAt(error: unknown, base: string, renamed: Readonly<Record<string, string>> = {}): unknown {
  if (!(error instanceof AppError)) return error;
  const match = /^([\w/]+): (.+)$/s.exec(error.message);
  const message = match ? `${fieldIn(base, match[1] ?? '', renamed)}: ${match[2]}` : `${base}: ${error.message}`;
  return new AppError(error.code, message, error.params);
}

/** The document as sent: YAML or JSON text (YAML reads both) or an object already. */
export function parseDocument(input: string | object): unknown {
  if (typeof input !== 'string') return input;
  try {
    return parseYaml(input, { maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const where = error.linePos?.[0];
      throw invalidParam(
        'document',
        `is not valid YAML or JSON${where ? ` (line ${where.line}, column ${where.col})` : ''}`,
      );
    }
    throw error;
  }
}

/** The description of the schema at `schemaPath` (`#/properties/sites/items/...`), the rule it states. */
function ruleAt(schema: TSchema, schemaPath: string): string | undefined {
  const parts = schemaPath.replace(/^#/, '').split('/').filter(Boolean);
  let node: unknown = schema;
  for (const part of parts)
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  const description = (node as { description?: unknown } | undefined)?.description;
  return typeof description === 'string' ? description : undefined;
}

/** The schema check of the whole document, with the schema defaults the single calls apply; the first error by its path. */
export function checkSchema<T extends TSchema = typeof CustomerDocument>(
  value: unknown,
  schema: T = CustomerDocument as unknown as T,
  base = '',
): Static<T> {
  if (base === '' && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw invalidParam('document', 'must be a mapping with version and kind');
  const document = Value.Default(schema, structuredClone(value));
  const [first] = Value.Errors(schema, document);
  if (first) {
    const path = documentPath(base + first.instancePath) || 'document';
    const extra = (first.params as { additionalProperties?: string[] } | undefined)?.additionalProperties;
    if (first.keyword === 'additionalProperties' && extra?.[0])
      throw invalidParam(`${path}.${extra[0]}`.replace(/^document\./, ''), 'is not a field of this object');
    if (first.keyword === 'required') {
      const missing = (first.params as { requiredProperties?: string[] }).requiredProperties?.[0];
      if (missing) throw invalidParam(path === 'document' ? missing : `${path}.${missing}`, 'is required');
    }
    // An object's field it does not have meets the `false` schema of additional properties.
    if (first.keyword === 'boolean') throw invalidParam(path, 'is not a field of this object');
    // A pattern reads better as the rule its field describes (`an IPv4 or IPv6 address`).
    const rule = first.keyword === 'pattern' ? ruleAt(schema, first.schemaPath) : undefined;
    if (rule) throw invalidParam(path, `must be ${rule}`);
    throw invalidParam(path, first.message);
  }
  return document as Static<T>;
}

function uniqueNames(section: string, items: readonly unknown[] | undefined, key = 'name') {
  const seen = new Set<string>();
  for (const [index, item] of (items ?? []).entries()) {
    const name = (item as Record<string, string>)[key] ?? '';
    if (seen.has(name)) throw invalidParam(`${section}[${index}].${key}`, `"${name}" is named twice in ${section}`);
    seen.add(name);
  }
}

/** Names a section gives, or the caller's current ones where the document leaves the section out. */
const namesOf = (section: readonly { name: string }[] | undefined, current: Map<string, unknown>) =>
  new Set(section ? section.map((item) => item.name) : current.keys());

/** References resolve: to objects of the document (or the caller's, for a section left out) and system rows. */
export function checkReferences(document: CustomerDocument, state: CustomerState) {
  for (const section of [
    'site_groups',
    'stream_groups',
    'cc_matches',
    'cc_filters',
    'cc_rule_groups',
    'sites',
    'streams',
    'certificates',
  ] as const) {
    uniqueNames(section, document[section]);
  }
  uniqueNames('acls', document.acls, 'site');

  const systemRefs = (index: CustomerState['matchRefs']) =>
    [...index.idOf.keys()].filter((ref) => ref.startsWith(SYSTEM_REF_PREFIX));
  const matches = new Set([...namesOf(document.cc_matches, state.ccMatches), ...systemRefs(state.matchRefs)]);
  const filters = new Set([...namesOf(document.cc_filters, state.ccFilters), ...systemRefs(state.filterRefs)]);
  const ruleGroups = new Set([...namesOf(document.cc_rule_groups, state.ccRuleGroups), ...systemRefs(state.groupRefs)]);
  const siteGroups = namesOf(document.site_groups, state.siteGroups);
  const streamGroups = namesOf(document.stream_groups, state.streamGroups);
  const sites = namesOf(document.sites, state.sites);

  for (const [index, group] of (document.cc_rule_groups ?? []).entries()) {
    for (const [at, rule] of group.rules.entries()) {
      const path = `cc_rule_groups[${index}].rules[${at}]`;
      if (!matches.has(rule.match)) throw invalidParam(`${path}.match`, `match "${rule.match}" does not exist`);
      if (!filters.has(rule.filter)) throw invalidParam(`${path}.filter`, `filter "${rule.filter}" does not exist`);
    }
  }
  for (const [index, site] of (document.sites ?? []).entries()) {
    const path = `sites[${index}]`;
    if (site.group != null && !siteGroups.has(site.group))
      throw invalidParam(`${path}.group`, `site group "${site.group}" does not exist`);
    const cert = site.settings.cert;
    if (cert != null && !state.certs.has(cert))
      throw invalidParam(`${path}.settings.cert`, `certificate "${cert}" does not exist (upload or issue it first)`);
    for (const key of ['rule_group', 'attack_rule_group'] as const) {
      const ref = site.settings.protection?.[key];
      if (ref != null && !ruleGroups.has(ref))
        throw invalidParam(`${path}.settings.protection.${key}`, `rule group "${ref}" does not exist`);
    }
  }
  for (const [index, acl] of (document.acls ?? []).entries()) {
    if (!sites.has(acl.site)) throw invalidParam(`acls[${index}].site`, `site "${acl.site}" does not exist`);
  }
  for (const [index, stream] of (document.streams ?? []).entries()) {
    if (stream.group != null && !streamGroups.has(stream.group))
      throw invalidParam(`streams[${index}].group`, `stream group "${stream.group}" does not exist`);
  }
}
