import type { AccessLogLine, LogBatchBody, StreamLogLine } from '@rampart/contracts';

// The numbers of a log batch are the ones its schema names (`seq` and the lines' numeric fields): Ajv
// has checked they are numbers, but a text such as "1e309" is coerced to Infinity on the way. These
// are the only numbers the master reads from a batch (a line's other properties are never stored),
// so checking them spares the route the walk over every value of the body.

const ACCESS_NUMBERS = [
  'time',
  'site_id',
  'status',
  'bytes_sent',
  'bytes_received',
  'request_time',
] as const satisfies readonly (keyof AccessLogLine)[];
const STREAM_NUMBERS = [
  'time',
  'stream_id',
  'status',
  'bytes_sent',
  'bytes_received',
  'session_time',
] as const satisfies readonly (keyof StreamLogLine)[];

// Spelled out field by field: the check runs on every line of every batch.
const finiteAccess = (line: AccessLogLine) =>
  Number.isFinite(line.time) &&
  Number.isFinite(line.site_id) &&
  Number.isFinite(line.status) &&
  Number.isFinite(line.bytes_sent) &&
  Number.isFinite(line.bytes_received) &&
  Number.isFinite(line.request_time) &&
  (line.upstream_time === null || Number.isFinite(line.upstream_time));
const finiteStream = (line: StreamLogLine) =>
  Number.isFinite(line.time) &&
  Number.isFinite(line.stream_id) &&
  Number.isFinite(line.status) &&
  Number.isFinite(line.bytes_sent) &&
  Number.isFinite(line.bytes_received) &&
  Number.isFinite(line.session_time);

/** The path (`access/3/time`) of the batch's first number that is not finite, or undefined. */
export function nonFiniteLogNumber(body: unknown): string | undefined {
  const batch = body as LogBatchBody;
  if (!Number.isFinite(batch.seq)) return 'seq';
  const { access, stream } = batch;
  for (let index = 0; index < access.length; index++) {
    const line = access[index]!;
    if (finiteAccess(line)) continue;
    const key = ACCESS_NUMBERS.find((name) => !Number.isFinite(line[name])) ?? 'upstream_time';
    return `access/${index}/${key}`;
  }
  for (let index = 0; index < stream.length; index++) {
    const line = stream[index]!;
    if (finiteStream(line)) continue;
    return `stream/${index}/${STREAM_NUMBERS.find((name) => !Number.isFinite(line[name]))}`;
  }
  return undefined;
}
