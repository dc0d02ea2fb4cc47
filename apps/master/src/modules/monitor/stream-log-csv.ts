import { STREAM_LOG_COLUMNS, type StreamLogEntry } from '@rampart/contracts';
import { csvField } from './access-log-csv.ts';

export const streamCsvLine = (entry: StreamLogEntry) =>
  `${STREAM_LOG_COLUMNS.map((column) => csvField(entry[column])).join(',')}\r\n`;

/** The header, then a line per entry, as text chunks of a few hundred lines for a streamed reply. */
export async function* streamCsvChunks(entries: AsyncIterable<StreamLogEntry>): AsyncGenerator<string> {
  let chunk = `${STREAM_LOG_COLUMNS.join(',')}\r\n`;
  let lines = 0;
  for await (const entry of entries) {
    chunk += streamCsvLine(entry);
    if (++lines % 500 === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
