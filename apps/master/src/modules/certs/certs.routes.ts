import {
  AcmeChallengeType,
  AcmeDomains,
  Cert,
  CertBatchBody,
  Envelope,
  Id,
  IdParams,
  ListQuery,
  ListResult,
  ObjectName,
  PERMISSIONS,
  UpdateCertBody,
  UploadCertBody,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { changeConfig } from '../config/config-version.ts';
import { normalizeDomain } from '../sites/sites.routes.ts';
import { creatorOf, type Owner, ownerOf } from '../tenancy.ts';
import { parseCertificate } from './cert-validation.ts';
import {
  countSitesUsingCert,
  deleteCert,
  findCert,
  insertCert,
  listCerts,
  presentCert,
  replaceCert,
} from './certs.repository.ts';
import { batchCerts, checkAcmeRequest, reissueAcmeCert, requestAcmeCert } from './certs.service.ts';

const tags = ['certs'];
/** An upload (`type` upload or absent: cert and key) or an ACME request (`type` acme: domains and challenge). */
const CreateCertBody = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('upload'), Type.Literal('acme')], { description: 'upload or acme' })),
    name: Type.Optional(ObjectName),
    cert: Type.Optional(UploadCertBody.properties.cert),
    key: Type.Optional(UploadCertBody.properties.key),
    domains: Type.Optional(AcmeDomains),
    challenge: Type.Optional(AcmeChallengeType),
    dnsapi_id: Type.Optional(Id),
    user_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);

/** Domains arrive as typed (case, trailing dot, Unicode): the same normalization as a site's. */
async function normalizeDomains(request: FastifyRequest) {
  const body = request.body as { domains?: unknown } | undefined;
  if (body && Array.isArray(body.domains)) {
    body.domains = body.domains.map((domain) => (typeof domain === 'string' ? normalizeDomain(domain) : domain));
  }
}

const refuse = (fields: Record<string, unknown>, names: readonly string[], why: string) => {
  const present = names.find((name) => fields[name] !== undefined);
  if (present) throw invalidParam(present, why);
};

export async function certRoutes(app: App, { db, secrets }: AppContext) {
  const present = async (owner: Owner, id: number) => {
    const row = await findCert(db, owner, id);
    if (!row) throw new AppError('not_found', `certificate ${id} does not exist`);
    return presentCert(row);
  };

  app.get(
    '/v1/certs',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: ListQuery, response: { 200: Envelope(ListResult(Cert)) } },
    },
    async (request) => ok(await listCerts(db, ownerOf(request), request.query.page ?? 1, request.query.limit ?? 20)),
  );

  app.post(
    '/v1/certs',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      preValidation: normalizeDomains,
      schema: { tags, body: CreateCertBody, response: { 200: Envelope(Cert) } },
    },
    async (request) => {
      const owner = ownerOf(request);
      const { type, name, cert, key, domains, challenge, dnsapi_id, user_id } = request.body;
      const userId = await creatorOf(db, owner, user_id);
      if (type === 'acme') {
        refuse(request.body, ['cert', 'key'], 'is not sent for an ACME certificate: the master issues it');
        if (domains === undefined) throw invalidParam('domains', 'is required for an ACME certificate');
        if (challenge === undefined) throw invalidParam('challenge', 'is required for an ACME certificate');
        const acme = await checkAcmeRequest(db, secrets, owner, userId, { domains, challenge, dnsapi_id });
        const id = await requestAcmeCert(db, userId, name ?? acme.domains[0] ?? 'certificate', acme);
        return ok(await present(owner, id));
      }
      refuse(request.body, ['domains', 'challenge', 'dnsapi_id'], 'is only for an ACME certificate (type acme)');
      if (cert === undefined) throw invalidParam('cert', 'is required');
      if (key === undefined) throw invalidParam('key', 'is required');
      const parsed = parseCertificate(cert, key);
      const { id } = await insertCert(db, userId, name ?? parsed.names[0] ?? 'certificate', parsed, Date.now());
      return ok(await present(owner, id));
    },
  );

  app.put(
    '/v1/certs',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CertBatchBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await batchCerts(db, ownerOf(request), request.body.ids, request.body.action);
      return ok(null);
    },
  );

  app.get(
    '/v1/certs/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Cert) } },
    },
    async (request) => ok(await present(ownerOf(request), request.params.id)),
  );

  // The certificate and its chain as PEM, for download: never the key.
  app.get(
    '/v1/certs/:id/pem',
    { config: { policy: policy.tenant(PERMISSIONS.adminUser) }, schema: { tags, params: IdParams } },
    async (request, reply) => {
      const row = await findCert(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `certificate ${request.params.id} does not exist`);
      if (!row.cert_pem) throw new AppError('conflict', 'the certificate has not been issued yet');
      const filename = `${row.name.replace(/[^A-Za-z0-9._-]/g, '_')}.pem`;
      return reply
        .type('application/x-pem-file')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(row.cert_pem);
    },
  );

  app.put(
    '/v1/certs/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      preValidation: normalizeDomains,
      schema: { tags, params: IdParams, body: UpdateCertBody, response: { 200: Envelope(Cert) } },
    },
    async (request) => {
      const owner = ownerOf(request);
      const row = await findCert(db, owner, request.params.id);
      if (!row) throw new AppError('not_found', `certificate ${request.params.id} does not exist`);
      const { name = row.name, cert, key, reissue, domains, challenge, dnsapi_id } = request.body;
      if (row.source === 'acme') {
        refuse(request.body, ['cert', 'key'], 'an ACME certificate is issued by the master, not uploaded');
        if (name !== row.name) await replaceCert(db, row.id, name, undefined, Date.now());
        const changed = domains !== undefined || challenge !== undefined || dnsapi_id !== undefined;
        if (reissue || changed) {
          const fields = {
            domains: domains ?? (JSON.parse(row.domains) as string[]),
            challenge: challenge ?? (row.challenge as AcmeChallengeType),
            dnsapi_id: dnsapi_id ?? (challenge === 'http-01' ? undefined : (row.dnsapi_id ?? undefined)),
          };
          const acme = await checkAcmeRequest(db, secrets, owner, row.user_id, fields);
          await reissueAcmeCert(db, row, acme, changed);
        }
        return ok(await present(owner, row.id));
      }
      refuse(request.body, ['reissue', 'domains', 'challenge', 'dnsapi_id'], 'is only for an ACME certificate');
      if ((cert === undefined) !== (key === undefined)) {
        throw new AppError('invalid_param', 'cert: a new certificate needs its key, and a new key its certificate');
      }
      const parsed = cert !== undefined && key !== undefined ? parseCertificate(cert, key) : undefined;
      // A replaced certificate changes what edges serve; a rename does not.
      if (parsed) await changeConfig(db, (trx) => replaceCert(trx, row.id, name, parsed, Date.now()));
      else await replaceCert(db, row.id, name, undefined, Date.now());
      return ok(await present(owner, row.id));
    },
  );

  app.delete(
    '/v1/certs/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      const row = await findCert(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `certificate ${request.params.id} does not exist`);
      if (row.task_state === 'queued' || row.task_state === 'running') {
        throw new AppError('conflict', 'the certificate is being issued; delete it when the issuance has finished');
      }
      const users = await countSitesUsingCert(db, row.id);
      if (users > 0) throw new AppError('conflict', `the certificate is used by ${users} site(s); change them first`);
      await deleteCert(db, row.id);
      return ok(null);
    },
  );
}
