import { Cert, Envelope, ListQuery, ListResult, ObjectName, UploadCertBody } from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { changeConfig } from '../config/config-version.ts';
import { creatorOf, ownerOf } from '../tenancy.ts';
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

const tags = ['certs'];
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const CreateCertBody = Type.Object(
  { ...UploadCertBody.properties, user_id: Type.Optional(Type.Integer({ minimum: 1 })) },
  { additionalProperties: false },
);
const UpdateCertBody = Type.Object(
  {
    name: Type.Optional(ObjectName),
    cert: Type.Optional(UploadCertBody.properties.cert),
    key: Type.Optional(UploadCertBody.properties.key),
  },
  { additionalProperties: false },
);

export async function certRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/certs',
    { schema: { tags, querystring: ListQuery, response: { 200: Envelope(ListResult(Cert)) } } },
    async (request) => ok(await listCerts(db, ownerOf(request), request.query.page ?? 1, request.query.limit ?? 20)),
  );

  app.post(
    '/v1/certs',
    { schema: { tags, body: CreateCertBody, response: { 200: Envelope(Cert) } } },
    async (request) => {
      const parsed = parseCertificate(request.body.cert, request.body.key);
      const userId = creatorOf(ownerOf(request), request.body.user_id);
      const name = request.body.name ?? parsed.names[0] ?? 'certificate';
      return ok(presentCert(await insertCert(db, userId, name, parsed, Date.now())));
    },
  );

  app.get(
    '/v1/certs/:id',
    { schema: { tags, params: IdParams, response: { 200: Envelope(Cert) } } },
    async (request) => {
      const row = await findCert(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `certificate ${request.params.id} does not exist`);
      return ok(presentCert(row));
    },
  );

  // The certificate and its chain as PEM, for download: never the key.
  app.get('/v1/certs/:id/pem', { schema: { tags, params: IdParams } }, async (request, reply) => {
    const row = await findCert(db, ownerOf(request), request.params.id);
    if (!row) throw new AppError('not_found', `certificate ${request.params.id} does not exist`);
    const filename = `${row.name.replace(/[^A-Za-z0-9._-]/g, '_')}.pem`;
    return reply
      .type('application/x-pem-file')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(row.cert_pem);
  });

  app.put(
    '/v1/certs/:id',
    { schema: { tags, params: IdParams, body: UpdateCertBody, response: { 200: Envelope(Cert) } } },
    async (request) => {
      const row = await findCert(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `certificate ${request.params.id} does not exist`);
      const { cert, key } = request.body;
      if ((cert === undefined) !== (key === undefined)) {
        throw new AppError('invalid_param', 'cert: a new certificate needs its key, and a new key its certificate');
      }
      const parsed = cert !== undefined && key !== undefined ? parseCertificate(cert, key) : undefined;
      // A replaced certificate changes what edges serve; a rename does not.
      const updated = parsed
        ? await changeConfig(db, (trx) => replaceCert(trx, row.id, request.body.name ?? row.name, parsed, Date.now()))
        : await replaceCert(db, row.id, request.body.name ?? row.name, undefined, Date.now());
      return ok(presentCert(updated));
    },
  );

  app.delete(
    '/v1/certs/:id',
    { schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      const row = await findCert(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `certificate ${request.params.id} does not exist`);
      const users = await countSitesUsingCert(db, row.id);
      if (users > 0) throw new AppError('conflict', `the certificate is used by ${users} site(s); change them first`);
      await deleteCert(db, row.id);
      return ok(null);
    },
  );
}
