import type { Readable } from 'node:stream';
import { Envelope, GeoipDatabase, MAX_GEOIP_BYTES, PERMISSIONS, UploadGeoipQuery } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { callingNode } from '../agent/agent-auth.ts';
import { currentGeoip, geoipBytes, restoreBundledGeoip, uploadGeoip } from './geoip.service.ts';

const tags = ['geoip'];
const OCTET_STREAM = 'application/octet-stream';

/** The uploaded file, read from the request stream up to MAX_GEOIP_BYTES; undefined for another content type. */
async function uploadedFile(request: FastifyRequest): Promise<Buffer | undefined> {
  if (!String(request.headers['content-type'] ?? '').startsWith(OCTET_STREAM)) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw as Readable) {
    size += (chunk as Buffer).length;
    if (size > MAX_GEOIP_BYTES) throw invalidParam('body', `larger than ${MAX_GEOIP_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * /v1/geoip (admin:sys): the GeoIP database the edges look client countries up in, and an upload
 * that replaces it. The bytes reach agents at /agent/v1/geoip/{sha256}.
 */
export async function geoipRoutes(app: App, { db }: AppContext) {
  const admin = { policy: policy.admin(PERMISSIONS.adminSys) };
  app.get(
    '/v1/geoip',
    {
      config: admin,
      schema: {
        tags,
        description: 'The GeoIP database the edges use now (null: none)',
        response: { 200: Envelope(Type.Union([GeoipDatabase, Type.Null()])) },
      },
    },
    async () => ok(await currentGeoip(db)),
  );

  // The file arrives as it is: the parser leaves the stream unread (no hook walks megabytes of it).
  await app.register(async (uploads: App) => {
    uploads.addContentTypeParser(OCTET_STREAM, (_request, _payload, done) => done(null, undefined));
    uploads.post(
      '/v1/geoip',
      {
        config: admin,
        schema: {
          tags,
          description: `Replaces the GeoIP database with a MaxMind-format .mmdb (as ${OCTET_STREAM}, at most ${MAX_GEOIP_BYTES} bytes); edges get it with the next config.`,
          querystring: UploadGeoipQuery,
          consumes: [OCTET_STREAM],
          response: { 200: Envelope(GeoipDatabase) },
        },
      },
      async (request) => ok(await uploadGeoip(db, await uploadedFile(request), request.query.name)),
    );
  });

  app.delete(
    '/v1/geoip',
    {
      config: admin,
      schema: {
        tags,
        description: 'Goes back to the GeoIP database the master ships',
        response: { 200: Envelope(GeoipDatabase) },
      },
    },
    async () => ok(await restoreBundledGeoip(db)),
  );
}

/** What agents download: the database named by its digest in their snapshot. */
export async function geoipAgentRoutes(app: App, { db }: AppContext) {
  app.get(
    '/agent/v1/geoip/:sha256',
    {
      config: { policy: policy.agent },
      schema: {
        tags: ['agent'],
        description: 'The GeoIP database (.mmdb) with this sha256; needs a node credential',
        // Any text up to 64 characters: an unknown digest is not_found, after the credential is checked.
        params: Type.Object({ sha256: Type.String({ maxLength: 64, description: 'sha256 of the file, hex' }) }),
      },
    },
    async (request, reply) => {
      await callingNode(db, request);
      const bytes = await geoipBytes(db, request.params.sha256);
      if (!bytes) throw new AppError('not_found', 'sha256: no GeoIP database with this digest');
      return reply.type(OCTET_STREAM).send(bytes);
    },
  );
}
