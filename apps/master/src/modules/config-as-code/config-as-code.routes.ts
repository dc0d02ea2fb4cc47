import {
  Envelope,
  EXPORT_CONFIRM_CODE_HEADER,
  EXPORT_CONFIRM_PASSWORD_HEADER,
  type ExportFormat,
  ExportQuery,
  FleetExportQuery,
  FleetImportBody,
  ImportBody,
  ImportPlan,
  PERMISSIONS,
} from '@rampart/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'yaml';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { publishSiteCnames } from '../line-groups/site-cnames.ts';
import { creatorOf, ownerOf } from '../tenancy.ts';
import { checkProof } from '../two-factor/two-factor.service.ts';
import { importDocument } from './apply.ts';
import { exportFleet, importFleet } from './fleet.ts';
import { documentOf, loadCustomerState } from './state.ts';

const tags = ['config-as-code'];

/** A document as YAML (the default) or JSON text, in the order it was built (a re-export diffs cleanly). */
const sendDocument = (reply: FastifyReply, document: object, format: ExportFormat | undefined) =>
  format === 'json'
    ? reply.type('application/json; charset=utf-8').send(`${JSON.stringify(document, null, 2)}\n`)
    : reply.type('application/yaml; charset=utf-8').send(stringify(document, { lineWidth: 0 }));

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * The caller's own configuration as one document (GET /v1/export) and a document planned or applied
 * against it (POST /v1/import). Both act on the caller's own objects; an administrator holding
 * admin:user names another user with `user_id`.
 */
export async function configAsCodeRoutes(app: App, { db, secrets }: AppContext) {
  app.get(
    '/v1/export',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        querystring: ExportQuery,
        description: `Your configuration as a YAML document (application/yaml), or JSON with format=json. Certificates are listed by name; include_keys=true adds their PEM certificate and key and needs your password in the ${EXPORT_CONFIRM_PASSWORD_HEADER} header or a two-factor code in ${EXPORT_CONFIRM_CODE_HEADER}.`,
      },
    },
    async (request, reply) => {
      const user = caller(request).user;
      const userId = await creatorOf(db, ownerOf(request), request.query.user_id);
      if (request.query.include_keys) {
        if (userId !== user.id)
          throw new AppError('forbidden', "include_keys: only your own certificates' keys are exported");
        await checkProof(db, secrets, user, {
          password: header(request, EXPORT_CONFIRM_PASSWORD_HEADER),
          code: header(request, EXPORT_CONFIRM_CODE_HEADER),
        });
      }
      const state = await loadCustomerState(db, userId);
      const document = documentOf(state);
      if (request.query.include_keys) {
        const pems = await db
          .selectFrom('certs')
          .select(['id', 'cert_pem', 'key_pem'])
          .where('user_id', '=', userId)
          .execute();
        const byId = new Map(pems.map((row) => [row.id, row]));
        document.certificates = [...state.certs.values()].map(({ id, object }) => ({
          ...object,
          cert: byId.get(id)?.cert_pem ?? '',
          key: byId.get(id)?.key_pem ?? '',
        }));
      }
      return sendDocument(reply, document, request.query.format);
    },
  );

  app.post(
    '/v1/import',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        tags,
        body: ImportBody,
        response: { 200: Envelope(ImportPlan) },
        description:
          'Plans the document against your configuration: each object to create, change (field by field) or delete. Without dry_run, applies the plan in one transaction and one config version, or changes nothing and names the first invalid field by its path in the document.',
      },
    },
    async (request) => {
      const { document, dry_run, user_id } = request.body;
      const userId = await creatorOf(db, ownerOf(request), user_id);
      const outcome = await importDocument(db, userId, document, dry_run === true);
      if (outcome.createdSiteIds.length > 0)
        await publishSiteCnames(db, secrets, app.log, { siteIds: outcome.createdSiteIds });
      const { createdSiteIds: _created, ...plan } = outcome;
      return ok(plan);
    },
  );

  app.get(
    '/v1/export/fleet',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        querystring: FleetExportQuery,
        description:
          "The fleet's settings (the /v1/configs entries you hold the code of, not the system settings) as a YAML document, or JSON with format=json",
      },
    },
    async (request, reply) => sendDocument(reply, await exportFleet(db, caller(request).user), request.query.format),
  );

  app.post(
    '/v1/import/fleet',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        body: FleetImportBody,
        response: { 200: Envelope(ImportPlan) },
        description:
          'Plans a fleet document: each setting that changes, field by field; without dry_run, saves them all in one config version, or none and names the first invalid field by its path',
      },
    },
    async (request) => {
      const { document, dry_run } = request.body;
      const services = { db, secrets, log: request.log };
      return ok(await importFleet(services, caller(request).user, document, dry_run === true));
    },
  );
}
