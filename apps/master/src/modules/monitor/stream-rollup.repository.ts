import type { StreamLogLine } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { LogDatabase, StreamTrafficTable } from '../../db/logs-schema.ts';
import { STREAM_ROLLUPS } from '../../db/migrations/logs/2026-11-25T1110-stream-traffic.ts';

export type StreamRollupTable = (typeof STREAM_ROLLUPS)[number]['table'];
export { STREAM_ROLLUPS };

const COUNTS = ['connections', 'failed', 'bytes_in', 'bytes_out', 'session_ms'] as const;

/**
 * The row of every stream together: an admin's chart of every stream reads one row an interval
 * instead of one per stream (stream ids start at 1).
 */
export const ALL_STREAMS = 0;

/**
 * One batch's stream lines summed per (stream, interval), and per interval under ALL_STREAMS: a
 * line is one ended connection or session.
 */
export function sumStreamTraffic(lines: readonly StreamLogLine[], seconds: number): StreamTrafficTable[] {
  const rows = new Map<string, StreamTrafficTable>();
  const add = (streamId: number, bucket: number, line: StreamLogLine) => {
    const key = `${streamId}:${bucket}`;
    let row = rows.get(key);
    if (!row) {
      row = { stream_id: streamId, bucket, connections: 0, failed: 0, bytes_in: 0, bytes_out: 0, session_ms: 0 };
      rows.set(key, row);
    }
    row.connections++;
    if (line.status >= 400) row.failed++;
    row.bytes_in += line.bytes_received;
    row.bytes_out += line.bytes_sent;
    row.session_ms += Math.round(line.session_time * 1000);
  };
  for (const line of lines) {
    if (line.stream_id <= 0) continue;
    const bucket = Math.floor(Math.round(line.time * 1000) / (seconds * 1000)) * seconds;
    add(line.stream_id, bucket, line);
    add(ALL_STREAMS, bucket, line);
  }
  // One order for every writer, so two batches adding to the same rows cannot deadlock.
  return [...rows.values()].sort((a, b) => a.stream_id - b.stream_id || a.bucket - b.bucket);
}

// 7 columns a row: 500 rows stay far below SQLite's bound-parameter limit.
const CHUNK = 500;

/** Adds a batch's stream lines to the minute, hour and day rollups, in the transaction that claims the batch. */
export async function addStreamRollups(trx: Kysely<LogDatabase>, lines: readonly StreamLogLine[]): Promise<void> {
  for (const { table, seconds } of STREAM_ROLLUPS) {
    const rows = sumStreamTraffic(lines, seconds);
    for (let i = 0; i < rows.length; i += CHUNK) {
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc
            .columns(['stream_id', 'bucket'])
            .doUpdateSet((eb) =>
              Object.fromEntries(
                COUNTS.map((column) => [column, eb(eb.ref(`${table}.${column}`), '+', eb.ref(`excluded.${column}`))]),
              ),
            ),
        )
        .execute();
    }
  }
}
