import {
  ConfirmTwoFactorBody,
  Envelope,
  IdParams,
  PERMISSIONS,
  RecoveryCodes,
  StartTwoFactorBody,
  TwoFactorProofBody,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import {
  confirmTwoFactor,
  disableTwoFactor,
  newRecoveryCodes,
  readTwoFactor,
  readUserTwoFactor,
  resetTwoFactor,
  startTwoFactor,
} from './two-factor.service.ts';

const tags = ['two-factor'];

/**
 * The signed-in user's own two-factor sign-in (an admin signed in as the user reads it but changes
 * nothing), and the admin's reset of a user's.
 */
export async function twoFactorRoutes(app: App, { db, secrets }: AppContext) {
  app.get(
    '/v1/user/two-factor',
    {
      config: { policy: policy.self },
      schema: { tags, summary: 'Whether two-factor sign-in is on', response: { 200: Envelope(TwoFactorStatus) } },
    },
    async (request) => ok(await readTwoFactor(db, caller(request).user.id)),
  );

  app.post(
    '/v1/user/two-factor',
    {
      config: { policy: policy.selfNotImpersonated },
      schema: {
        tags,
        summary: 'Start: a new TOTP secret and its otpauth:// URI, shown once',
        body: StartTwoFactorBody,
        response: { 200: Envelope(TwoFactorSetup) },
      },
    },
    async (request) => ok(await startTwoFactor(db, secrets, caller(request).user, request.body.password)),
  );

  app.put(
    '/v1/user/two-factor',
    {
      config: { policy: policy.selfNotImpersonated },
      schema: {
        tags,
        summary: 'Confirm with a code from the app: turns it on and answers ten recovery codes, shown once',
        body: ConfirmTwoFactorBody,
        response: { 200: Envelope(RecoveryCodes) },
      },
    },
    async (request) => ok(await confirmTwoFactor(db, secrets, caller(request).user.id, request.body.code)),
  );

  app.post(
    '/v1/user/two-factor/recovery-codes',
    {
      config: { policy: policy.selfNotImpersonated },
      schema: {
        tags,
        summary: 'Ten new recovery codes in place of the old ones (a current code or the password)',
        body: TwoFactorProofBody,
        response: { 200: Envelope(RecoveryCodes) },
      },
    },
    async (request) => ok(await newRecoveryCodes(db, secrets, caller(request).user, request.body)),
  );

  app.delete(
    '/v1/user/two-factor',
    {
      config: { policy: policy.selfNotImpersonated },
      schema: {
        tags,
        summary: 'Turn it off (a current code or the password)',
        body: TwoFactorProofBody,
        response: { 200: Envelope(Type.Null()) },
      },
    },
    async (request) => {
      await disableTwoFactor(db, secrets, caller(request).user, request.body ?? {});
      return ok(null);
    },
  );

  app.get(
    '/v1/users/:id/two-factor',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary: "Admin (admin:user or admin:sys): whether a user's two-factor sign-in is on",
        params: IdParams,
        response: { 200: Envelope(TwoFactorStatus) },
      },
    },
    async (request) => ok(await readUserTwoFactor(db, request.params.id)),
  );

  app.delete(
    '/v1/users/:id/two-factor',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary:
          "Admin (admin:user or admin:sys): reset a user's two-factor sign-in, for one who lost the app and the codes; not of an admin holding a code the caller lacks, nor of the root admin",
        params: IdParams,
        response: { 200: Envelope(Type.Null()) },
      },
    },
    async (request) => {
      await resetTwoFactor(db, caller(request).user, request.params.id);
      return ok(null);
    },
  );
}
