import {
  DnsDrift,
  Envelope,
  IdParams,
  LineBody,
  LineGroupBody,
  LineGroupUpdate,
  LineGroupView,
  LineSyncBody,
  LineSyncResult,
  LineUpdate,
  LineView,
  ListResult,
  PERMISSIONS,
} from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { checkAllDrift, checkDrift, repairAllDrift, repairDrift } from './drift.ts';
import { readLineGroups } from './line-groups.repository.ts';
import { createLineGroup, deleteLineGroup, type LineGroupServices, updateLineGroup } from './line-groups.service.ts';
import { findLine, listLines, presentLine } from './lines.repository.ts';
import { deleteLine, saveLine, syncLines } from './lines.service.ts';

const tags = ['nodes'];

const DRIFT =
  'Compares what the DNS provider holds for the group’s host (A/AAAA on every line: value, TTL, weight where the provider keeps weights) and for its sites’ CNAMEs (up to 200) with what publishing would write now: missing, extra and different records. A provider that cannot be read is answered in error.';
const REPAIR =
  'Republishes (the configured TTLs included), removes the host’s records on lines the group does not publish, then answers the differences left: none unless the provider refused a change (then error says why).';

/** Admin calls for DNS lines (`/v1/lines`) and line groups (`/v1/node-groups`). */
export async function lineGroupRoutes(app: App, { db, secrets }: AppContext) {
  const services = (): LineGroupServices => ({ db, secrets, log: app.log });

  app.get(
    '/v1/lines',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, response: { 200: Envelope(ListResult(LineView)) } },
    },
    async () => {
      const rows = await listLines(db);
      return ok({ list: rows.map(presentLine), total: rows.length });
    },
  );

  app.post(
    '/v1/lines',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, body: LineBody, response: { 200: Envelope(LineView) } },
    },
    async (request) => {
      return ok(await saveLine(db, null, request.body));
    },
  );

  app.post(
    '/v1/lines/sync',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, body: LineSyncBody, response: { 200: Envelope(LineSyncResult) } },
    },
    async (request) => {
      return ok(await syncLines(db, secrets, request.body));
    },
  );

  app.get(
    '/v1/lines/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, params: IdParams, response: { 200: Envelope(LineView) } },
    },
    async (request) => {
      const row = await findLine(db, request.params.id);
      if (!row) throw new AppError('not_found', `line ${request.params.id} does not exist`);
      return ok(presentLine(row));
    },
  );

  app.put(
    '/v1/lines/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, params: IdParams, body: LineUpdate, response: { 200: Envelope(LineView) } },
    },
    async (request) => {
      return ok(await saveLine(db, request.params.id, request.body));
    },
  );

  app.delete(
    '/v1/lines/:id',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, params: IdParams } },
    async (request) => {
      await deleteLine(db, request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/v1/node-groups',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, response: { 200: Envelope(ListResult(LineGroupView)) } },
    },
    async () => {
      const list = await readLineGroups(db);
      return ok({ list, total: list.length });
    },
  );

  app.post(
    '/v1/node-groups',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, body: LineGroupBody, response: { 200: Envelope(LineGroupView) } },
    },
    async (request) => {
      return ok(await createLineGroup(services(), request.body));
    },
  );

  app.get(
    '/v1/node-groups/drift',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, description: `Every line group: ${DRIFT}`, response: { 200: Envelope(ListResult(DnsDrift)) } },
    },
    async () => {
      const list = await checkAllDrift(db, { secrets });
      return ok({ list, total: list.length });
    },
  );

  app.post(
    '/v1/node-groups/drift/repair',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, description: `Every line group: ${REPAIR}`, response: { 200: Envelope(ListResult(DnsDrift)) } },
    },
    async () => {
      const list = await repairAllDrift(services());
      return ok({ list, total: list.length });
    },
  );

  app.get(
    '/v1/node-groups/:id/drift',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, description: DRIFT, params: IdParams, response: { 200: Envelope(DnsDrift) } },
    },
    async (request) => {
      return ok(await checkDrift(db, { secrets }, request.params.id));
    },
  );

  app.post(
    '/v1/node-groups/:id/drift/repair',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, description: REPAIR, params: IdParams, response: { 200: Envelope(DnsDrift) } },
    },
    async (request) => {
      return ok(await repairDrift(services(), request.params.id));
    },
  );

  app.get(
    '/v1/node-groups/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, params: IdParams, response: { 200: Envelope(LineGroupView) } },
    },
    async (request) => {
      const [group] = await readLineGroups(db, request.params.id);
      if (!group) throw new AppError('not_found', `line group ${request.params.id} does not exist`);
      return ok(group);
    },
  );

  app.put(
    '/v1/node-groups/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, params: IdParams, body: LineGroupUpdate, response: { 200: Envelope(LineGroupView) } },
    },
    async (request) => {
      return ok(await updateLineGroup(services(), request.params.id, request.body));
    },
  );

  app.delete(
    '/v1/node-groups/:id',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, params: IdParams } },
    async (request) => {
      await deleteLineGroup(services(), request.params.id);
      return ok(null);
    },
  );
}
