import {
  Certification,
  CertifyBody,
  CertifyQuery,
  CertifyReviewBody,
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
} from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { listCertificationsFor, reviewCertificationRequest, submitCertification } from './certify.service.ts';

const tags = ['certify'];

/** Spec §7 POST, GET /v1/user/certify, and the admin's review. */
export async function certifyRoutes(app: App, { db }: AppContext) {
  app.post(
    '/v1/user/certify',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        summary: 'Ask for certification: a person (resident ID number) or a company (unified social credit code)',
        body: CertifyBody,
        response: { 200: Envelope(Certification) },
      },
    },
    async (request) => ok(await submitCertification(db, caller(request).user.id, request.body)),
  );

  app.get(
    '/v1/user/certify',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary:
          "The caller's own requests, newest first (ID numbers masked); admins (admin:user or admin:sys) see everyone's, filtered by user_id and state",
        querystring: CertifyQuery,
        response: { 200: Envelope(ListResult(Certification)) },
      },
    },
    async (request) => ok(await listCertificationsFor(db, ownerOf(request), request.query)),
  );

  app.put(
    '/v1/user/certify/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary: 'Admin (admin:user or admin:sys): approve a pending request, or reject it with a reason',
        params: IdParams,
        body: CertifyReviewBody,
        response: { 200: Envelope(Certification) },
      },
    },
    async (request) =>
      ok(await reviewCertificationRequest(db, caller(request).user.id, request.params.id, request.body)),
  );
}
