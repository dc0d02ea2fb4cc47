import type { LineBody, LineSyncBody, LineSyncResult, LineUpdate, LineView } from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import { providerOf } from '../dnsapis/dnsapis.service.ts';
import { findLine, isDefaultLine, presentLine } from './lines.repository.ts';

/** English names of the lines Chinese providers name in Chinese (DNSPod names its lines so). */
const ENGLISH: Record<string, string> = {
  电信: 'Telecom',
  联通: 'Unicom',
  移动: 'Mobile',
  教育网: 'Education network',
  境外: 'Overseas',
  境内: 'Mainland China',
  搜索引擎: 'Search engines',
  百度: 'Baidu',
  铁通: 'Tietong',
  鹏博士: 'Dr. Peng',
};

const notFound = (id: number) => new AppError('not_found', `line ${id} does not exist`);

/** Creates (id null) or changes a line; one code per provider. */
export const saveLine = (db: Kysely<Database>, id: number | null, body: LineBody | LineUpdate): Promise<LineView> =>
  db.transaction().execute((trx) => saveLineIn(trx, id, body));

/** saveLine inside the caller's transaction (an import's). */
export async function saveLineIn(
  trx: Transaction<Database>,
  id: number | null,
  body: LineBody | LineUpdate,
): Promise<LineView> {
  const current = id === null ? undefined : await findLine(trx, id);
  if (id !== null && !current) throw notFound(id);
  if (current && isDefaultLine(current) && (body.code !== undefined || body.provider !== undefined)) {
    if (body.code !== current.code || body.provider !== current.provider)
      throw invalidParam('code', 'the default line keeps its code and provider');
  }
  const line = {
    provider: body.provider ?? current?.provider ?? '',
    code: body.code ?? current?.code ?? '',
    name_zh: body.name_zh ?? current?.name_zh ?? '',
    name_en: body.name_en ?? current?.name_en ?? '',
  };
  const taken = await trx
    .selectFrom('lines')
    .select('id')
    .where('provider', '=', line.provider)
    .where('code', '=', line.code)
    .$if(id !== null, (qb) => qb.where('id', '!=', id ?? 0))
    .executeTakeFirst();
  if (taken) throw new AppError('conflict', `code: ${line.provider || 'every provider'} already has line ${line.code}`);
  const row =
    id === null
      ? await trx
          .insertInto('lines')
          .values({ ...line, created_at: Date.now() })
          .returningAll()
          .executeTakeFirstOrThrow()
      : await trx.updateTable('lines').set(line).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return presentLine(row);
}

/** Deletes a line no line group uses; the default line stays. */
export const deleteLine = (db: Kysely<Database>, id: number) =>
  db.transaction().execute((trx) => deleteLineIn(trx, id));

/** deleteLine inside the caller's transaction (an import's). */
export async function deleteLineIn(trx: Transaction<Database>, id: number) {
  const line = await findLine(trx, id);
  if (!line) throw notFound(id);
  if (isDefaultLine(line)) throw new AppError('conflict', 'the default line cannot be deleted');
  const used = await trx
    .selectFrom('line_group_records')
    .innerJoin('node_groups', 'node_groups.id', 'line_group_records.group_id')
    .select('node_groups.name')
    .where('line_group_records.line_id', '=', id)
    .executeTakeFirst();
  if (used) throw new AppError('conflict', `line ${line.code} is used by line group ${used.name}`);
  await trx.deleteFrom('lines').where('id', '=', id).execute();
}

/** Adds the lines a DNS API account's provider lists for a zone (the first zone when none is named). */
export async function syncLines(db: Kysely<Database>, secrets: SecretBox, body: LineSyncBody): Promise<LineSyncResult> {
  const account = await db.selectFrom('dnsapis').selectAll().where('id', '=', body.dnsapi_id).executeTakeFirst();
  if (!account) throw new AppError('not_found', `dnsapi_id: DNS API ${body.dnsapi_id} does not exist`);
  const provider = await providerOf(db, secrets, account);
  const zones = await provider.listZones();
  const zone = body.zone || zones[0];
  if (!zone) throw new AppError('conflict', `DNS API ${account.name} has no zone to read lines from`);
  if (!zones.includes(zone)) throw invalidParam('zone', `${zone} is not a zone of DNS API ${account.name}`);
  const lines = await provider.listLines(zone);
  const present = new Set(
    (await db.selectFrom('lines').select('code').where('provider', '=', account.provider).execute()).map(
      (row) => row.code,
    ),
  );
  const fresh = lines.filter((line) => !present.has(line.code));
  if (fresh.length > 0) {
    await db
      .insertInto('lines')
      .values(
        fresh.map((line) => ({
          provider: account.provider,
          code: line.code,
          name_zh: line.name.slice(0, 64),
          name_en: (ENGLISH[line.code] ?? ENGLISH[line.name] ?? line.code).slice(0, 64),
          created_at: Date.now(),
        })),
      )
      .execute();
  }
  return { added: fresh.length, total: lines.length };
}
