import swagger from '@fastify/swagger';
import { ErrorEnvelope } from '@rampart/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { policy } from './route-policy.ts';

/** OpenAPI 3 generated from the route schemas, served at /v1/openapi.json. */
async function openapiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Rampart API',
        version: '0.1.0',
        description:
          'Every response is {code, msg, data}; code 0 is success. A failure is {code, msg, data: null, params?} (components.schemas.ErrorEnvelope) with a 4xx or 5xx status.',
      },
      components: {
        securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'Access-Token' } },
        schemas: { ErrorEnvelope },
      },
      security: [{ accessToken: [] }],
    },
  });
  app.get('/v1/openapi.json', { config: { policy: policy.public }, schema: { hide: true } }, async () => app.swagger());
}

export const openapi = fp(openapiPlugin, { name: 'openapi' });
