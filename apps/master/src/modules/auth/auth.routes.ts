import {
  CaptchaSent,
  EmailCaptchaBody,
  Envelope,
  ImageCaptcha,
  LoginBody,
  LoginPolicy,
  LoginPolicyQuery,
  PhoneCaptchaBody,
  RefreshedToken,
  RegisterBody,
  ResetPassBody,
  Session,
  UserWithToken,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller, clientInfo } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { checkCodeChannel, codeChannels } from '../messages/code-channels.ts';
import { noticeSignIn } from '../messages/security-notices.ts';
import { loadSettings } from '../settings/settings.service.ts';
import { secondFactorAwaited } from '../two-factor/two-factor-login.ts';
import { findUserByAccount, findUserByEmail, findUserByPhone, presentUser } from '../users/users.repository.ts';
import { login, refreshSession } from './auth.service.ts';
import { createImageCaptcha } from './image-captcha.ts';
import { captchaRequired, recentFailures } from './login-guard.ts';
import { resetPassword } from './password-reset.service.ts';
import { register } from './registration.service.ts';
import { revokeSession } from './sessions.repository.ts';
import { issueVerifyCode } from './verify-codes.ts';

const tags = ['auth'];

/** Sign-in, registration, reset and the codes they need: no token required. */
export async function publicAuthRoutes(app: App, { db, messenger, notifier, secrets }: AppContext) {
  app.post(
    '/v1/login',
    {
      config: { policy: policy.public },
      schema: { tags, body: LoginBody, response: { 200: Envelope(UserWithToken) } },
    },
    async (request) => {
      const user = await login(db, secrets, request.body, clientInfo(request));
      await noticeSignIn(db, notifier, user, clientInfo(request));
      return ok(user);
    },
  );

  app.get(
    '/v1/user/login-policy',
    {
      config: { policy: policy.public },
      schema: { tags, querystring: LoginPolicyQuery, response: { 200: Envelope(LoginPolicy) } },
    },
    async (request) => {
      const settings = await loadSettings(db);
      const account = request.query.account ?? '';
      const failures = await recentFailures(db, settings, account, request.ip);
      // Only an address that just proved the password learns that a code is awaited (no enumeration).
      const user = account ? await findUserByAccount(db, account) : undefined;
      const awaited = user ? await secondFactorAwaited(db, user.id, request.ip) : false;
      return ok({ captcha_required: !awaited && captchaRequired(settings, failures), two_factor_required: awaited });
    },
  );

  app.get(
    '/v1/common/captcha',
    { config: { policy: policy.public }, schema: { tags, response: { 200: Envelope(ImageCaptcha) } } },
    async () => ok(await createImageCaptcha(db)),
  );

  app.post(
    '/v1/user',
    {
      config: { policy: policy.public },
      schema: { tags, body: RegisterBody, response: { 200: Envelope(UserWithToken) } },
    },
    async (request) => ok(await register(db, request.body, clientInfo(request), messenger)),
  );

  app.post(
    '/v1/reset-pass',
    {
      config: { policy: policy.public },
      schema: { tags, body: ResetPassBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await resetPassword(db, request.body);
      return ok(null);
    },
  );

  app.post(
    '/v1/email-captcha',
    {
      config: { policy: policy.public },
      schema: { tags, body: EmailCaptchaBody, response: { 200: Envelope(CaptchaSent) } },
    },
    async (request) => {
      const settings = await loadSettings(db);
      checkCodeChannel(codeChannels(settings, messenger), 'email');
      const purpose = request.body.purpose ?? 'register';
      // For a reset, answer the same whether or not the address has an account (no enumeration).
      if (purpose === 'reset' && !(await findUserByEmail(db, request.body.email))) {
        return ok({ expires_in: settings.verify_code_ttl_seconds, resend_after: settings.verify_code_resend_seconds });
      }
      const to = { channel: 'email' as const, target: request.body.email, purpose, ip: request.ip };
      return ok(await issueVerifyCode(db, messenger, settings, to, settings.site_name));
    },
  );

  app.post(
    '/v1/phone-captcha',
    {
      config: { policy: policy.public },
      schema: { tags, body: PhoneCaptchaBody, response: { 200: Envelope(CaptchaSent) } },
    },
    async (request) => {
      const settings = await loadSettings(db);
      checkCodeChannel(codeChannels(settings, messenger), 'sms');
      const purpose = request.body.purpose ?? 'register';
      if (purpose === 'reset' && !(await findUserByPhone(db, request.body.phone))) {
        return ok({ expires_in: settings.verify_code_ttl_seconds, resend_after: settings.verify_code_resend_seconds });
      }
      const to = { channel: 'sms' as const, target: request.body.phone, purpose, ip: request.ip };
      return ok(await issueVerifyCode(db, messenger, settings, to, settings.site_name));
    },
  );
}

/** The current session: read, refresh, end. Registered inside the authenticated folder. */
export async function sessionRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/common/auth',
    { config: { policy: policy.self }, schema: { tags, response: { 200: Envelope(Session) } } },
    async (request) => {
      const { user, expiresAt, apiKey } = caller(request);
      return ok({ user: presentUser(user), expires_at: apiKey ? null : new Date(expiresAt).toISOString() });
    },
  );

  app.post(
    '/v1/common/auth',
    { config: { policy: policy.self }, schema: { tags, response: { 200: Envelope(RefreshedToken) } } },
    async (request) => {
      return ok(await refreshSession(db, caller(request), clientInfo(request)));
    },
  );

  app.delete(
    '/v1/common/auth',
    { config: { policy: policy.self }, schema: { tags, response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      await revokeSession(db, caller(request).sessionId, Date.now());
      return ok(null);
    },
  );
}
