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
    // Not async: the caller is already read (from the session cache on most calls), and a promise is
    // a turn of the microtask queue on the call every dashboard page makes first.
    (request) => {
      const { user } = caller(request);
      // The cached user is current: every balance change forgets the user's cached sessions (billing/ledger.ts).
      return ok(presentUser(user));
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
