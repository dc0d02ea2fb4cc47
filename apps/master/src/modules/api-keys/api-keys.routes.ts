import { ApiKeyIssued, ApiKeyOrNull, CreateApiKeyBody, Envelope, UpdateApiKeyBody } from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { createKey, deleteKey, readKey, updateKey } from './api-keys.service.ts';

const tags = ['api-key'];

/** The signed-in user's own API key (spec §7: GET, POST, PUT, DELETE /v1/api-key). */
export async function apiKeyRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/api-key',
    { config: { policy: policy.self }, schema: { tags, response: { 200: Envelope(ApiKeyOrNull) } } },
    async (request) => ok(await readKey(db, caller(request).user.id)),
  );

  app.post(
    '/v1/api-key',
    {
      config: { policy: policy.selfNotImpersonated },
      schema: { tags, body: CreateApiKeyBody, response: { 200: Envelope(ApiKeyIssued) } },
    },
    async (request) => ok(await createKey(db, caller(request).user.id, request.body)),
  );

  app.put(
    '/v1/api-key',
    {
      config: { policy: policy.selfNotImpersonated },
      schema: { tags, body: UpdateApiKeyBody, response: { 200: Envelope(ApiKeyIssued) } },
    },
    async (request) => ok(await updateKey(db, caller(request).user.id, request.body)),
  );

  app.delete(
    '/v1/api-key',
    { config: { policy: policy.selfNotImpersonated }, schema: { tags, response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      await deleteKey(db, caller(request).user.id);
      return ok(null);
    },
  );
}
