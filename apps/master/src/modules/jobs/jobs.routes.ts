import { Envelope, Job, JobType, ListQuery, ListResult, PERMISSIONS } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { changeConfig } from '../config/config-version.ts';
import type { Owner } from '../tenancy.ts';
import { ownerOf } from '../tenancy.ts';
import { insertJob, listJobs } from './jobs.repository.ts';

const tags = ['jobs'];
const CreateJobBody = Type.Object(
  {
    type: JobType,
    urls: Type.Array(Type.String({ minLength: 8, maxLength: 2048, pattern: '^https?://[\\x21-\\x7e]+$' }), {
      minItems: 1,
      maxItems: 1000,
      description: '1 to 1000 absolute http(s) URLs without spaces or control characters',
    }),
  },
  { additionalProperties: false },
);

const domainMatches = (domain: string, host: string) =>
  domain === host ||
  (domain.startsWith('*.') && host.endsWith(domain.slice(1)) && !host.slice(0, -domain.length + 1).includes('.'));

/** Groups URLs by the caller's site that serves each host; a URL no site of theirs serves is refused. */
async function urlsBySite(db: Kysely<Database>, owner: Owner, urls: readonly string[]) {
  const hosts = new Map<string, string[]>();
  for (const [index, raw] of urls.entries()) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('invalid_param', `urls/${index}: ${raw} is not a URL`);
    }
    hosts.set(url.hostname, [...(hosts.get(url.hostname) ?? []), url.href]);
  }
  const domains = await db
    .selectFrom('site_domains')
    .innerJoin('sites', 'sites.id', 'site_domains.site_id')
    .select(['site_domains.domain', 'sites.id'])
    .$if(owner.kind === 'user', (qb) => qb.where('sites.user_id', '=', owner.userId))
    .where((eb) =>
      eb.or([
        eb('site_domains.domain', 'in', [...hosts.keys()]),
        eb(
          'site_domains.domain',
          'in',
          [...hosts.keys()].map((host) => `*.${host.slice(host.indexOf('.') + 1)}`),
        ),
      ]),
    )
    .execute();
  const bySite = new Map<number, string[]>();
  for (const [host, list] of hosts) {
    const site =
      domains.find((entry) => entry.domain === host) ?? domains.find((entry) => domainMatches(entry.domain, host));
    if (!site) throw new AppError('invalid_param', `urls: ${host} is not a domain of any of your sites`);
    bySite.set(site.id, [...(bySite.get(site.id) ?? []), ...list]);
  }
  return bySite;
}

/** URLs a user may submit per day and kind of job; a constant until packages set their own. */
export const DAILY_JOB_QUOTA: Record<JobType, number> = { 'purge-url': 10_000, 'purge-dir': 500, prefetch: 5_000 };

async function checkQuota(db: Kysely<Database>, userId: number, type: JobType, adding: number) {
  const since = Date.now() - 24 * 60 * 60 * 1000;
  const rows = await db
    .selectFrom('jobs')
    .select('urls')
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .where('created_at', '>', since)
    .execute();
  const used = rows.reduce((sum, row) => sum + (JSON.parse(row.urls) as string[]).length, 0);
  const quota = DAILY_JOB_QUOTA[type];
  if (used + adding > quota) {
    throw new AppError(
      'throttled',
      `urls: ${type} allows ${quota} URLs a day; ${Math.max(0, quota - used)} are left for now`,
    );
  }
}

export async function jobRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/jobs',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: ListQuery, response: { 200: Envelope(ListResult(Job)) } },
    },
    async (request) => ok(await listJobs(db, ownerOf(request), request.query.page ?? 1, request.query.limit ?? 20)),
  );

  app.post(
    '/v1/jobs',
    { config: { policy: policy.tenant(PERMISSIONS.adminUser) }, schema: { tags, body: CreateJobBody } },
    async (request) => {
      const owner = ownerOf(request);
      const bySite = await urlsBySite(db, owner, request.body.urls);
      if (owner.kind === 'user') await checkQuota(db, owner.userId, request.body.type, request.body.urls.length);
      const ids = await changeConfig(db, async (trx) => {
        const created: number[] = [];
        for (const [siteId, urls] of bySite) {
          created.push(
            await insertJob(trx, { userId: owner.userId, type: request.body.type, siteId, urls }, Date.now()),
          );
        }
        return created;
      });
      return ok({ ids });
    },
  );
}
