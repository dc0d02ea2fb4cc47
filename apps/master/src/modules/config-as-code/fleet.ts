import {
  DOCUMENT_VERSION,
  FLEET_KIND,
  FleetDocument,
  type ImportPlan,
  PERMISSIONS,
  type PlanChange,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { holds } from '../../plugins/route-policy.ts';
import { CONFIGS, type ConfigDefinition, configKey, readConfig, writeConfig } from '../settings/configs.ts';
import type { UserRow } from '../users/user-row.ts';
import { checkSchema, parseDocument } from './document.ts';
import { applyPackageChanges, loadPackages, packageChanges } from './fleet-packages.ts';
import { inOneConfigVersion } from './one-version.ts';
import { fieldChanges } from './plan.ts';

/**
 * The entries a fleet document holds for `admin`: those they hold the code of, but not the system
 * settings (/sys/setting: mail and SMS secrets, registration), which stay with their own page.
 */
export const fleetConfigs = (admin: UserRow): ConfigDefinition[] =>
  CONFIGS.filter((definition) => definition.type !== 'system' && holds(admin, [definition.permission])).sort((a, b) =>
    configKey(a) < configKey(b) ? -1 : 1,
  );

export async function exportFleet(db: Kysely<Database>, admin: UserRow): Promise<FleetDocument> {
  const configs: Record<string, unknown> = {};
  for (const definition of fleetConfigs(admin))
    configs[configKey(definition)] = (await readConfig(db, definition)).value;
  const document: FleetDocument = { version: DOCUMENT_VERSION, kind: FLEET_KIND, configs };
  if (holds(admin, [PERMISSIONS.adminPackage]))
    document.packages = [...(await loadPackages(db)).values()].map((held) => held.object);
  return document;
}

/** Plans the fleet document and, unless `dryRun`, saves every changed entry in one config version. */
export async function importFleet(
  db: Kysely<Database>,
  admin: UserRow,
  input: string | object,
  dryRun: boolean,
): Promise<ImportPlan> {
  const document = checkSchema(parseDocument(input), FleetDocument);
  const definitions = new Map(fleetConfigs(admin).map((definition) => [configKey(definition), definition]));
  const entries: { definition: ConfigDefinition; value: unknown; change: PlanChange }[] = [];
  for (const [key, sent] of Object.entries(document.configs ?? {})) {
    const definition = definitions.get(key);
    if (!definition) throw invalidParam(`configs.${key}`, 'is not a fleet setting you may change');
    const value = checkSchema(sent, definition.schema, `/configs/${key}`);
    const broken = definition.check?.(value as never);
    if (broken) throw invalidParam(`configs.${key}.${broken.field}`, broken.rule);
    const fields = fieldChanges((await readConfig(db, definition)).value, value);
    if (fields.length > 0)
      entries.push({ definition, value, change: { action: 'update', kind: 'config', name: key, fields } });
  }
  const packages = document.packages;
  if (packages && !holds(admin, [PERMISSIONS.adminPackage]))
    throw new AppError('forbidden', `packages: this needs the ${PERMISSIONS.adminPackage} permission`);
  const changes = [
    ...entries.map((entry) => entry.change),
    ...(packages ? packageChanges(packages, await loadPackages(db)) : []),
  ];
  if (changes.length === 0) return { changes, applied: false, config_version: null };
  const { version, result } = await inOneConfigVersion(db, dryRun, async (trx) => {
    const now = Date.now();
    for (const { definition, value } of entries) {
      const before = (await readConfig(trx, definition)).value;
      await writeConfig(trx, definition, value, now);
      await definition.onSave?.(trx, value, before);
    }
    if (!packages) return changes;
    // The catalogue again inside the transaction: what another call changed since counts.
    const current = await loadPackages(trx);
    const applied = [...entries.map((entry) => entry.change), ...packageChanges(packages, current)];
    await applyPackageChanges(trx, packages, current, applied);
    return applied;
  });
  return { changes: result ?? changes, applied: version !== null, config_version: version };
}
