import type { AccessLogLine, StreamLogLine } from '@rampart/contracts';

/**
 * Where bodies are put together: kept from one batch to the next (grown when a batch needs more).
 * JSON.stringify of a whole batch made a string of about 1.3 MB and Buffer.from another copy of it,
 * fresh large allocations every batch, each paid for again in page faults.
 */
let scratch = Buffer.allocUnsafe(1 << 20);

/** Makes room for `bytes` more bytes after `at`, keeping what is before it. */
function room(at: number, bytes: number): void {
  if (scratch.length - at >= bytes) return;
  const larger = Buffer.allocUnsafe(Math.max(scratch.length * 2, at + bytes));
  scratch.copy(larger, 0, 0, at);
  scratch = larger;
}

/** Writes `text` as UTF-8 at `at`; returns the end. */
function put(text: string, at: number): number {
  // A UTF-16 code unit is at most 3 bytes of UTF-8.
  room(at, text.length * 3);
  return at + scratch.write(text, at);
}

/** The lines' JSON, comma separated, from `at`; returns the end. */
function putLines(lines: readonly (AccessLogLine | StreamLogLine)[], at: number): number {
  let end = at;
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) {
      room(end, 1);
      scratch[end++] = 0x2c;
    }
    end = put(JSON.stringify(lines[i]), end);
  }
  return end;
}

/**
 * The JSON of a LogBatchBody (POST /agent/v1/logs: seq, access, stream, keys in the contract's order)
 * as UTF-8: the same bytes as `JSON.stringify({ seq, access, stream })`, each line stringified by
 * itself and the body one copy out of the scratch buffer.
 */
export function batchBody(
  seq: number,
  access: readonly AccessLogLine[],
  stream: readonly StreamLogLine[],
): Buffer<ArrayBuffer> {
  let at = put(`{"seq":${seq},"access":[`, 0);
  at = putLines(access, at);
  at = put('],"stream":[', at);
  at = putLines(stream, at);
  at = put(']}', at);
  const body = Buffer.allocUnsafeSlow(at);
  scratch.copy(body, 0, 0, at);
  return body;
}
