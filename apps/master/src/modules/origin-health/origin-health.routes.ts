import { DEFAULT_SITE_HEALTH_CHECK, Envelope, IdParams, OriginHealth, PERMISSIONS } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { findSite, presentSite } from '../sites/sites.repository.ts';
import { ownerOf } from '../tenancy.ts';
import { siteOriginHealth } from './origin-health.repository.ts';

/** GET /v1/sites/{id}/origin-health: the site's origins as each node's health checks see them. */
export async function originHealthRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/sites/:id/origin-health',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags: ['sites'], params: IdParams, response: { 200: Envelope(OriginHealth) } },
    },
    async (request) => {
      const row = await findSite(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `site ${request.params.id} does not exist`);
      const check = presentSite(row).health_check ?? DEFAULT_SITE_HEALTH_CHECK;
      return ok({ enabled: check.enabled, nodes: await siteOriginHealth(db, row.id) });
    },
  );
}
