import { Envelope, UserConfigs } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { checkSiteSettings, DEFAULT_SITE_SETTINGS } from '../sites/site-rules.ts';
import { readSiteDefaults, writeSiteDefaults } from './user-configs.ts';

const tags = ['sites'];

/** The caller's defaults for new sites: GET shows them, PUT replaces them. */
export async function userConfigRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/user-configs',
    { config: { policy: policy.self }, schema: { tags, response: { 200: Envelope(UserConfigs) } } },
    async (request) => ok({ site_defaults: await readSiteDefaults(db, caller(request).user.id) }),
  );

  app.put(
    '/v1/user-configs',
    {
      config: { policy: policy.self },
      schema: { tags, body: UserConfigs, response: { 200: Envelope(UserConfigs) } },
    },
    async (request) => {
      const defaults = request.body.site_defaults;
      // The same cross-field rules as a site, checked on a sample site with these defaults.
      checkSiteSettings({
        ...DEFAULT_SITE_SETTINGS,
        ...defaults,
        domains: ['defaults.example.com'],
        origins: [{ address: '127.0.0.1', port: 80, weight: 1, backup: false }],
      });
      await writeSiteDefaults(db, caller(request).user.id, defaults);
      return ok({ site_defaults: defaults });
    },
  );
}
