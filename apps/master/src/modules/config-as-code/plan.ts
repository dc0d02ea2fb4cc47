import type { CustomerDocument, DocumentKind, PlanChange, PlanField } from '@rampart/contracts';
import type { CustomerState, Held } from './state.ts';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const sameValue = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Keys sorted at every level, so two objects compare by content. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isPlainObject(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical(value[key])]),
    );
  return value;
}

const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;

/**
 * The fields that differ between `from` and `to`. At the levels listed in `partial` (paths) only the
 * keys `to` has count: a field the document leaves out keeps its value. Arrays of one length
 * compare element by element; otherwise the whole array is one field.
 */
export function fieldChanges(
  from: unknown,
  to: unknown,
  path = '',
  partial: ReadonlySet<string> = new Set(),
): PlanField[] {
  if (sameValue(from, to)) return [];
  if (isPlainObject(from) && isPlainObject(to)) {
    const keys = partial.has(path) ? Object.keys(to) : [...new Set([...Object.keys(from), ...Object.keys(to)])];
    return keys.flatMap((key) => fieldChanges(from[key], to[key], join(path, key), partial));
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    return to.flatMap((item, index) => fieldChanges(from[index], item, join(path, index)));
  }
  return [{ path, from: from ?? null, to: to ?? null }];
}

interface Section<T> {
  kind: DocumentKind;
  items: readonly T[] | undefined;
  current: Map<string, Held<T>>;
  nameOf: (item: T) => string;
  partial?: ReadonlySet<string>;
}

function sectionChanges<T>({ kind, items, current, nameOf, partial }: Section<T>): PlanChange[] {
  if (!items) return [];
  const changes: PlanChange[] = [];
  const named = new Set<string>();
  for (const item of items) {
    const name = nameOf(item);
    named.add(name);
    const held = current.get(name);
    if (!held) {
      changes.push({ action: 'create', kind, name });
      continue;
    }
    const fields = fieldChanges(held.object, item, '', partial);
    if (fields.length > 0) changes.push({ action: 'update', kind, name, fields });
  }
  for (const name of current.keys()) if (!named.has(name)) changes.push({ action: 'delete', kind, name });
  return changes;
}

// A site or stream the document writes leaves out what keeps its value (as PUT does).
const SITE_PARTIAL = new Set(['', 'settings', 'settings.protection']);
const STREAM_PARTIAL = new Set(['', 'settings']);
// A filter keeps a setting of its type the document leaves out (as PUT /v1/cc-filters/{id} does).
const FILTER_PARTIAL = new Set(['']);

/** What an import of `document` changes, kind by kind in the order it applies them. */
export function planChanges(document: CustomerDocument, state: CustomerState): PlanChange[] {
  const byName = (item: { name: string }) => item.name;
  const changes = [
    ...sectionChanges({ kind: 'site_group', items: document.site_groups, current: state.siteGroups, nameOf: byName }),
    ...sectionChanges({
      kind: 'stream_group',
      items: document.stream_groups,
      current: state.streamGroups,
      nameOf: byName,
    }),
    ...sectionChanges({ kind: 'cc_match', items: document.cc_matches, current: state.ccMatches, nameOf: byName }),
    ...sectionChanges({
      kind: 'cc_filter',
      items: document.cc_filters,
      current: state.ccFilters,
      nameOf: byName,
      partial: FILTER_PARTIAL,
    }),
    ...sectionChanges({
      kind: 'cc_rule_group',
      items: document.cc_rule_groups,
      current: state.ccRuleGroups,
      nameOf: byName,
    }),
    ...sectionChanges({
      kind: 'site',
      items: document.sites,
      current: state.sites,
      nameOf: byName,
      partial: SITE_PARTIAL,
    }),
    ...sectionChanges({ kind: 'acl', items: document.acls, current: state.acls, nameOf: (acl) => acl.site }),
    ...sectionChanges({
      kind: 'stream',
      items: document.streams,
      current: state.streams,
      nameOf: byName,
      partial: STREAM_PARTIAL,
    }),
  ];
  if (document.user_configs) {
    const fields = fieldChanges(state.userConfigs, document.user_configs);
    if (fields.length > 0) changes.push({ action: 'update', kind: 'user_configs', name: 'site_defaults', fields });
  }
  return changes;
}
