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
import type { LineGroupServices } from '../line-groups/line-groups.service.ts';
import { CONFIGS, type ConfigDefinition, configKey, readConfig, writeConfig } from '../settings/configs.ts';
import type { UserRow } from '../users/user-row.ts';
import { checkSchema, parseDocument } from './document.ts';
import { deleteDnsLines, dnsLineChanges, loadDnsLines, saveDnsLines } from './fleet-dns-lines.ts';
import {
  applyLineGroupChanges,
  type LineGroupPublishing,
  lineGroupChanges,
  loadLineGroups,
  publishLineGroupChanges,
} from './fleet-line-groups.ts';
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
  if (holds(admin, [PERMISSIONS.adminNode])) {
    document.dns_lines = [...(await loadDnsLines(db)).values()].map((held) => held.object);
    document.line_groups = [...(await loadLineGroups(db)).values()].map((held) => held.object);
  }
  if (holds(admin, [PERMISSIONS.adminPackage]))
    document.packages = [...(await loadPackages(db)).values()].map((held) => held.object);
  return document;
}

/** A plan without changes: its transaction rolls back, and no config version is spent. */
class Unchanged extends Error {}

interface FleetApplied {
  changes: PlanChange[];
  publishing: LineGroupPublishing;
}

/**
 * Plans the fleet document and, unless `dryRun`, saves every changed entry in one config version;
 * then publishes the changed line groups to their DNS providers.
 */
export async function importFleet(
  services: LineGroupServices,
  admin: UserRow,
  input: string | object,
  dryRun: boolean,
): Promise<ImportPlan> {
  const { db } = services;
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
  const { dns_lines: dnsLines, line_groups: lineGroups } = document;
  for (const [section, given] of [
    ['dns_lines', dnsLines],
    ['line_groups', lineGroups],
  ] as const) {
    if (given && !holds(admin, [PERMISSIONS.adminNode]))
      throw new AppError('forbidden', `${section}: this needs the ${PERMISSIONS.adminNode} permission`);
  }
  // Planned inside the transaction, in the order it applies: a line group may name a DNS line the
  // document adds, and a package a line group it adds. A dry run, or a plan without changes, rolls back.
  let outcome: Awaited<ReturnType<typeof inOneConfigVersion<FleetApplied>>>;
  try {
    outcome = await inOneConfigVersion(db, dryRun, async (trx) => {
      const now = Date.now();
      for (const { definition, value } of entries) {
        const before = (await readConfig(trx, definition)).value;
        await writeConfig(trx, definition, value, now);
        await definition.onSave?.(trx, value, before);
      }
      const applied = entries.map((entry) => entry.change);
      let publishing: LineGroupPublishing = { saved: [], deleted: [] };
      const lines = dnsLines ? await loadDnsLines(trx) : new Map();
      const lineChanges = dnsLines ? dnsLineChanges(dnsLines, lines) : [];
      if (dnsLines) {
        await saveDnsLines(trx, dnsLines, lines, lineChanges);
        applied.push(...lineChanges);
      }
      if (lineGroups) {
        const current = await loadLineGroups(trx);
        const planned = await lineGroupChanges(trx, lineGroups, current);
        publishing = await applyLineGroupChanges(trx, lineGroups, current, planned);
        applied.push(...planned);
      }
      // After the line groups, which may have stopped naming them.
      await deleteDnsLines(trx, lines, lineChanges);
      if (packages) {
        const current = await loadPackages(trx);
        const planned = packageChanges(packages, current);
        await applyPackageChanges(trx, packages, current, planned);
        applied.push(...planned);
      }
      if (applied.length === 0) throw new Unchanged();
      return { changes: applied, publishing };
    });
  } catch (error) {
    if (error instanceof Unchanged) return { changes: [], applied: false, config_version: null };
    throw error;
  }
  const { version, result } = outcome;
  // What the single calls publish after their commit, the import publishes after its own.
  if (version !== null && result) await publishLineGroupChanges(services, result.publishing);
  return { changes: result?.changes ?? [], applied: version !== null, config_version: version };
}
