import { Envelope, PERMISSIONS, RulePreview, RulePreviewBody } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { previewRule } from './rule-preview.service.ts';

/** POST /v1/rules/preview: what a draft ACL, CC match or rule group would have done to a site's recent traffic. */
export async function rulePreviewRoutes(app: App, { db, events }: AppContext) {
  app.post(
    '/v1/rules/preview',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags: ['protection'],
        description:
          "Evaluates a draft rule (as the create calls take it) over the site's access log of the last 1 to 24 hours with the edge's semantics; nothing is saved. Conditions the log cannot answer (request headers other than User-Agent and Referer) are listed in not_evaluated.",
        body: RulePreviewBody,
        response: { 200: Envelope(RulePreview) },
      },
    },
    async (request) => ok(await previewRule({ db, events }, ownerOf(request), request.body, Date.now())),
  );
}
