import { CaptchaSent, Envelope, ProfileEmailCodeBody, ProfilePhoneCodeBody } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { sendProfileCode } from './profile.service.ts';

const tags = ['users'];

/** Codes for changing the signed-in user's email or phone (PUT /v1/user takes them). */
export async function profileRoutes(app: App, { db, messenger }: AppContext) {
  app.post(
    '/v1/user/email-captcha',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        summary: 'Send a code to a new email address of the signed-in user (rate limited)',
        body: ProfileEmailCodeBody,
        response: { 200: Envelope(CaptchaSent) },
      },
    },
    async (request) => ok(await sendProfileCode(db, messenger, caller(request).user, 'email', request.body.email)),
  );

  app.post(
    '/v1/user/phone-captcha',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        summary: 'Send an SMS code to a new phone number of the signed-in user (rate limited)',
        body: ProfilePhoneCodeBody,
        response: { 200: Envelope(CaptchaSent) },
      },
    },
    async (request) => ok(await sendProfileCode(db, messenger, caller(request).user, 'sms', request.body.phone)),
  );
}
