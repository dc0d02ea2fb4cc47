import {
  CaptchaTypes,
  Envelope,
  ListQuery,
  ListResult,
  Menus,
  PERMISSIONS,
  RegisterInfo,
  SiteSysConfig,
  SysInfo,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { buildMenus } from '../menus/menus.service.ts';
import { codeChannels } from '../messages/code-channels.ts';
import { listMessages } from '../messages/messages.repository.ts';
import { loadSettings } from '../settings/settings.service.ts';

const tags = ['common'];

/** What the sign-in pages need before anyone is signed in. */
export async function publicCommonRoutes(app: App, { db, messenger }: AppContext) {
  app.get(
    '/v1/common/sysinfo',
    { config: { policy: policy.public }, schema: { tags, response: { 200: Envelope(SysInfo) } } },
    async () => {
      const settings = await loadSettings(db);
      return ok({ footer_link: settings.footer_link, footer_copyright: settings.footer_copyright });
    },
  );

  app.get(
    '/v1/common/captcha-type',
    { config: { policy: policy.public }, schema: { tags, response: { 200: Envelope(CaptchaTypes) } } },
    async () =>
      // Both channels work without a provider: codes wait in the outbox for the operator.
      ok({ login: 'image' as const, reset: ['email' as const, 'phone' as const] }),
  );

  app.get(
    '/v1/common/register-info',
    { config: { policy: policy.public }, schema: { tags, response: { 200: Envelope(RegisterInfo) } } },
    async () => {
      const settings = await loadSettings(db);
      return ok({
        open: settings.register_open,
        fields: { email: settings.register_email, phone: settings.register_phone, qq: settings.register_qq },
        agreement_url: settings.agreement_url,
        ...codeChannels(settings, messenger),
      });
    },
  );

  app.post(
    '/api/system/i18n/list',
    {
      config: { policy: policy.public },
      schema: {
        tags,
        body: Type.Object(
          { languages: Type.Array(Type.String({ pattern: '^[a-z]{2,3}(-[A-Z][A-Za-z]{1,3})?$' }), { maxItems: 16 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { i18n_overrides } = await loadSettings(db);
      const wanted = request.body.languages.filter((language) => Object.hasOwn(i18n_overrides, language));
      return ok(Object.fromEntries(wanted.map((language) => [language, i18n_overrides[language]])));
    },
  );

  app.get(
    '/v1/site-sys-config',
    { config: { policy: policy.public }, schema: { tags, response: { 200: Envelope(SiteSysConfig) } } },
    async () => {
      const settings = await loadSettings(db);
      return ok({
        site_name: settings.site_name,
        logo_url: settings.logo_url,
        register_open: settings.register_open,
        default_language: settings.default_language,
        languages: settings.languages,
      });
    },
  );
}

const MessageSend = Type.Object({
  id: Type.Integer(),
  channel: Type.String(),
  target: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  status: Type.String(),
  error: Type.String(),
  created_at: Type.String(),
});

/** Calls for a signed-in user: menus; and the message send log (outbox) for admins. */
export async function signedInCommonRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/common/menu2',
    { config: { policy: policy.self }, schema: { tags, response: { 200: Envelope(Menus) } } },
    async (request) => {
      const { user } = caller(request);
      return ok(buildMenus({ type: user.type, access: JSON.parse(user.access) as string[] }));
    },
  );

  app.get(
    '/v1/log/msg-send',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags: ['logs'], querystring: ListQuery, response: { 200: Envelope(ListResult(MessageSend)) } },
    },
    async (request) => ok(await listMessages(db, request.query.page ?? 1, request.query.limit ?? 20)),
  );
}
