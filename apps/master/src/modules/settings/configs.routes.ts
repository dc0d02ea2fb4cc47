import { ConfigEntry, ConfigKeyParams, ConfigListQuery, Envelope, ListResult } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { holds, policy } from '../../plugins/route-policy.ts';
import { changeConfig } from '../config/config-version.ts';
import {
  CONFIGS,
  type ConfigDefinition,
  configKey,
  keepMaskedSecrets,
  maskConfigSecrets,
  readConfig,
  resetConfig,
  writeConfig,
} from './configs.ts';
import { sealSetting } from './sealed-settings.ts';

const tags = ['configs'];

/** Whether the caller holds the code of an entry: the list shows only those. */
const mayUse = (request: FastifyRequest, definition: ConfigDefinition) =>
  holds(caller(request).user, [definition.permission]);

/**
 * GET /v1/configs lists the entries the caller may use, with their values. Each entry's value is
 * read with GET, replaced with PUT (checked with the entry's schema) and reset to its default with
 * DELETE on /v1/configs/{key}; all three answer the value.
 */
export async function configRoutes(app: App, { db }: AppContext) {
  const present = async (definition: ConfigDefinition): Promise<ConfigEntry> => {
    const { value, updatedAt } = await readConfig(db, definition);
    return {
      key: configKey(definition),
      scope_name: definition.scope_name,
      scope_id: definition.scope_id,
      type: definition.type,
      name: definition.name,
      value: maskConfigSecrets(definition, value),
      updated_at: updatedAt === null ? null : new Date(updatedAt).toISOString(),
    };
  };
  // A value the edges serve with changes with the config version, so every node applies it.
  const store = async (definition: ConfigDefinition, write: (target: typeof db) => Promise<void>, saved: unknown) => {
    const before = definition.onSave ? (await readConfig(db, definition)).value : undefined;
    const change = async (target: typeof db) => {
      await write(target);
      await definition.onSave?.(target, saved, before);
    };
    if (definition.edge) await changeConfig(db, change);
    else await change(db);
  };

  app.get(
    '/v1/configs',
    {
      config: { policy: policy.self },
      schema: { tags, querystring: ConfigListQuery, response: { 200: Envelope(ListResult(ConfigEntry)) } },
    },
    async (request) => {
      const { scope_name, type } = request.query;
      const shown = CONFIGS.filter(
        (definition) =>
          mayUse(request, definition) &&
          (scope_name === undefined || definition.scope_name === scope_name) &&
          (type === undefined || definition.type === type),
      );
      return ok({ list: await Promise.all(shown.map(present)), total: shown.length });
    },
  );

  for (const definition of CONFIGS) {
    const path = `/v1/configs/${configKey(definition)}`;
    // The policy hook refuses before the body is checked: a caller without the code learns nothing of the schema.
    const schema = { tags, description: definition.description, response: { 200: Envelope(definition.schema) } };
    const value = async () => ok(maskConfigSecrets(definition, (await readConfig(db, definition)).value));
    app.get(path, { config: { policy: policy.admin(definition.permission) }, schema }, value);
    app.put(
      path,
      {
        config: { policy: policy.admin(definition.permission) },
        schema: { ...schema, body: definition.schema },
      },
      async (request) => {
        const broken = definition.check?.(request.body);
        if (broken) throw invalidParam(`body/${broken.field}`, broken.rule);
        const stored = definition.secrets?.length ? (await readConfig(db, definition)).value : undefined;
        const kept = keepMaskedSecrets(definition, request.body, stored, (plain) => sealSetting(db, plain));
        await store(definition, (target) => writeConfig(target, definition, kept, Date.now()), kept);
        return value();
      },
    );
    app.delete(path, { config: { policy: policy.admin(definition.permission) }, schema }, async () => {
      await store(definition, (target) => resetConfig(target, definition), definition.fallback);
      return value();
    });
  }

  // Static paths above win; any other well-formed key names no entry.
  const unknown = async (request: FastifyRequest<{ Params: { key: string } }>) => {
    throw new AppError('not_found', `config ${request.params.key} does not exist`);
  };
  const described = { tags, params: ConfigKeyParams, description: 'A key no config entry has: not_found' };
  app.get('/v1/configs/:key', { config: { policy: policy.self }, schema: described }, unknown);
  app.put('/v1/configs/:key', { config: { policy: policy.self }, schema: described }, unknown);
  app.delete('/v1/configs/:key', { config: { policy: policy.self }, schema: described }, unknown);
}
