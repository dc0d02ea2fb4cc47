import { Envelope, UpdateCurrentUserBody, User } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { presentUser } from './users.repository.ts';
import { updateCurrentUser } from './users.service.ts';

const tags = ['users'];

export async function currentUserRoutes(app: App, { db }: AppContext) {
  app.get('/v1/user', { schema: { tags, response: { 200: Envelope(User) } } }, async (request) =>
    ok(presentUser(caller(request).user)),
  );

  app.put(
    '/v1/user',
    { schema: { tags, body: UpdateCurrentUserBody, response: { 200: Envelope(User) } } },
    async (request) => {
      const { user, sessionId } = caller(request);
      return ok(presentUser(await updateCurrentUser(db, user, sessionId, request.body)));
    },
  );
}
