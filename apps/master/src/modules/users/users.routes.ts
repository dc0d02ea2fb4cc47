import { Envelope, UpdateProfileBody, User } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { updateProfile } from '../profile/profile.service.ts';
import { presentUser } from './users.repository.ts';

const tags = ['users'];

export async function currentUserRoutes(app: App, { db, messenger }: AppContext) {
  app.get(
    '/v1/user',
    { config: { policy: policy.self }, schema: { tags, response: { 200: Envelope(User) } } },
    async (request) => {
      const { user } = caller(request);
      // The session cache may hold the user from before a purchase or a recharge: the balance is read now.
      const fresh = await db.selectFrom('users').select('balance').where('id', '=', user.id).executeTakeFirst();
      return ok(presentUser({ ...user, balance: fresh?.balance ?? user.balance }));
    },
  );

  app.put(
    '/v1/user',
    {
      config: { policy: policy.self },
      schema: { tags, body: UpdateProfileBody, response: { 200: Envelope(User) } },
    },
    async (request) => {
      const { user, sessionId } = caller(request);
      // A new email or phone needs the code sent to it (modules/profile); the rest is updateCurrentUser.
      return ok(presentUser(await updateProfile(db, user, sessionId, request.body, messenger)));
    },
  );
}
