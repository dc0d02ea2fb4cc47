import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { aclRoutes } from './acls.routes.ts';
import { banRoutes } from './bans.routes.ts';
import { blockLogRoutes } from './block-log.routes.ts';
import { ccFilterRoutes } from './cc-filters.routes.ts';
import { ccMatchRoutes } from './cc-matches.routes.ts';
import { ccRuleGroupRoutes } from './cc-rule-groups.routes.ts';

/** Every /v1 call of protection: CC matches, filters, rule groups, ACLs, bans, the block log. */
export async function protectionRoutes(app: App, context: AppContext) {
  await ccMatchRoutes(app, context);
  await ccFilterRoutes(app, context);
  await ccRuleGroupRoutes(app, context);
  await aclRoutes(app, context);
  await banRoutes(app, context);
  await blockLogRoutes(app, context);
}
