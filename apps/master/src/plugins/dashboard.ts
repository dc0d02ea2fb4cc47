import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { declareScopePolicy, policy } from './route-policy.ts';
import { setSecurityHeaders } from './security-headers.ts';

/**
 * Serves the dashboard's production build under /dashboard/ with history fallback: a path that is
 * not a file gets index.html, so deep links work. Hashed assets are cached for a year.
 */
export async function dashboard(app: FastifyInstance, options: { root: string }) {
  if (!existsSync(join(options.root, 'index.html'))) {
    app.log.warn({ root: options.root }, 'dashboard build not found: run `npm run build` (npm start does it)');
  }
  app.get('/', { config: { policy: policy.public }, schema: { hide: true } }, (_request, reply) =>
    reply.redirect('/dashboard/'),
  );
  await app.register(
    async (scope) => {
      // The dashboard's files are the sign-in page too: public; the API behind them checks each call.
      declareScopePolicy(scope, policy.public);
      await scope.register(fastifyStatic, {
        root: options.root,
        prefix: '/',
        redirect: true,
        index: 'index.html',
        // The build writes .br and .gz beside each asset; send those when the browser accepts them.
        preCompressed: true,
        setHeaders(response, path) {
          const immutable = path.includes(`${join(options.root, 'assets')}`);
          response.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
      scope.setNotFoundHandler((request, reply) => {
        setSecurityHeaders(request, reply);
        // A missing hashed asset (an old chunk after a redeploy) must fail as such, not turn into the page.
        if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url.startsWith('/dashboard/assets/')) {
          return reply
            .status(404)
            .send({ code: 'not_found', msg: `no route for ${request.method} ${request.url}`, data: null });
        }
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      });
    },
    { prefix: '/dashboard' },
  );
}
