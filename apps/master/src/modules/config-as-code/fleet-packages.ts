import {
  type FleetPackage,
  type PackageBody,
  type PackageView,
  type PlanChange,
  SYSTEM_REF_PREFIX,
} from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { invalidParam } from '../../errors.ts';
import { readPackages } from '../packages/catalogue.repository.ts';
import { createPackage, deletePackage, updatePackage } from '../packages/catalogue.service.ts';
import { SYSTEM_USER } from '../protection/cc-owner.ts';
import { refusalAt } from './document.ts';
import { fieldChanges } from './plan.ts';
import { type Held, keyed } from './state.ts';

/** Names of the rows a package refers to, both ways. */
interface PackageRefs {
  groups: Map<number, string>;
  lineGroups: Map<number, string>;
  /** id → `system:name`, or the id itself for a user's rule group */
  ruleGroups: Map<number, string | number>;
}

async function packageRefs(db: Kysely<Database>): Promise<PackageRefs> {
  const groups = await db.selectFrom('package_groups').select(['id', 'name']).orderBy('id').execute();
  const lineGroups = await db.selectFrom('node_groups').select(['id', 'name']).orderBy('id').execute();
  const ruleGroups = await db.selectFrom('cc_rule_groups').select(['id', 'name', 'user_id']).orderBy('id').execute();
  return {
    groups: new Map(groups.map((row) => [row.id, row.name])),
    lineGroups: new Map(lineGroups.map((row) => [row.id, row.name])),
    ruleGroups: new Map(
      ruleGroups.map((row) => [
        row.id,
        (row.user_id ?? SYSTEM_USER) === SYSTEM_USER ? `${SYSTEM_REF_PREFIX}${row.name}` : row.id,
      ]),
    ),
  };
}

function fleetPackage(view: PackageView, refs: PackageRefs): FleetPackage {
  const {
    id: _id,
    group_id,
    group_name: _groupName,
    line_group_id,
    cc_rule_group_ids,
    sold: _sold,
    created_at: _created,
    billing,
    ...fields
  } = view;
  return {
    ...fields,
    billing: billing as FleetPackage['billing'],
    group: group_id === null ? null : (refs.groups.get(group_id) ?? null),
    line_group: line_group_id === null ? null : (refs.lineGroups.get(line_group_id) ?? null),
    cc_rule_groups: cc_rule_group_ids.map((id) => refs.ruleGroups.get(id) ?? id),
  };
}

/** The catalogue by name, in name order. */
export async function loadPackages(db: Kysely<Database>): Promise<Map<string, Held<FleetPackage>>> {
  const refs = await packageRefs(db);
  const views = [...(await readPackages(db, {}))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return keyed(
    'packages',
    views.map((view) => ({ id: view.id, name: view.name, object: fleetPackage(view, refs) })),
  );
}

const firstIdOf = (names: Map<number, string>, name: string) => [...names].find(([, each]) => each === name)?.[0];

/** A document package as POST/PUT /v1/packages takes it: ids for names; errors by the package's path. */
async function packageBody(db: Kysely<Database>, item: FleetPackage, path: string): Promise<Partial<PackageBody>> {
  const refs = await packageRefs(db);
  const { group, line_group, cc_rule_groups, ...fields } = item;
  const body: Partial<PackageBody> = { ...fields };
  if (group !== undefined) {
    const id = group === null ? null : firstIdOf(refs.groups, group);
    if (id === undefined) throw invalidParam(`${path}.group`, `package group "${group}" does not exist`);
    body.group_id = id;
  }
  if (line_group !== undefined) {
    const id = line_group === null ? null : firstIdOf(refs.lineGroups, line_group);
    if (id === undefined) throw invalidParam(`${path}.line_group`, `line group "${line_group}" does not exist`);
    body.line_group_id = id;
  }
  if (cc_rule_groups !== undefined) {
    body.cc_rule_group_ids = cc_rule_groups.map((ref, index) => {
      const id =
        typeof ref === 'number'
          ? refs.ruleGroups.has(ref)
            ? ref
            : undefined
          : [...refs.ruleGroups].find(([, each]) => each === ref)?.[0];
      if (id === undefined)
        throw invalidParam(`${path}.cc_rule_groups[${index}]`, `rule group ${JSON.stringify(ref)} does not exist`);
      return id;
    });
  }
  return body;
}

/** The packages section's changes: by name, a package the section leaves out deleted. */
export function packageChanges(items: readonly FleetPackage[], current: Map<string, Held<FleetPackage>>) {
  const changes: PlanChange[] = [];
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (seen.has(item.name)) throw invalidParam(`packages[${index}].name`, `"${item.name}" is named twice in packages`);
    seen.add(item.name);
    const held = current.get(item.name);
    if (!held) {
      changes.push({ action: 'create', kind: 'package', name: item.name });
      continue;
    }
    const fields = fieldChanges(held.object, item, '', new Set(['']));
    if (fields.length > 0) changes.push({ action: 'update', kind: 'package', name: item.name, fields });
  }
  for (const name of current.keys()) if (!seen.has(name)) changes.push({ action: 'delete', kind: 'package', name });
  return changes;
}

/** The package calls' names as the document writes them. */
const PACKAGE_NAMES: Record<string, string> = { group_id: 'group', line_group_id: 'line_group' };

/** Makes the packages' changes in `trx` through the catalogue's service. */
export async function applyPackageChanges(
  trx: Transaction<Database>,
  items: readonly FleetPackage[],
  current: Map<string, Held<FleetPackage>>,
  changes: readonly PlanChange[],
) {
  for (const [index, item] of items.entries()) {
    const path = `packages[${index}]`;
    const action = changes.find((change) => change.kind === 'package' && change.name === item.name)?.action;
    if (action === undefined) continue;
    const body = await packageBody(trx, item, path);
    try {
      if (action === 'create') await createPackage(trx, { ...body, name: item.name } as PackageBody);
      else await updatePackage(trx, current.get(item.name)?.id ?? 0, body);
    } catch (error) {
      throw refusalAt(error, path, PACKAGE_NAMES);
    }
  }
  for (const change of changes.filter((each) => each.kind === 'package' && each.action === 'delete')) {
    try {
      await deletePackage(trx, current.get(change.name)?.id ?? 0);
    } catch (error) {
      throw refusalAt(error, `packages.${change.name}`, PACKAGE_NAMES);
    }
  }
}
