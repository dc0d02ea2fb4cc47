// A log batch body as agents write it, `{"seq":N,"access":[...],"stream":[...]}` without spaces, is
// parsed some 30 KB of lines at a time: each piece's text stays small, where the whole body's text
// (about 1.3 MB for 5,000 lines) is a new large allocation every batch, paid for in page faults.

/** A piece's least size; with its last line it stays below V8's large-object size (128 KB) mostly. */
const PIECE_BYTES = 30_000;
const SEQ = Buffer.from('{"seq":');
const ACCESS = Buffer.from(',"access":[');
const STREAM = Buffer.from('],"stream":[');
const END = Buffer.from(']}');
/** Between two lines (objects) of a list. */
const BETWEEN = Buffer.from('},{');
const DIGITS = /^[1-9][0-9]{0,14}$/;

/**
 * The values of the list `bytes[from, to)` (the text between `[` and `]`), parsed a piece at a time.
 * Pieces are cut after a `}` followed by `,{`. A cut inside a string or inside a line leaves a piece
 * that is not JSON, which `parse` refuses (the caller then parses the whole body); pieces that all
 * parse are lists of whole values, so they join into the list the whole text holds.
 */
function listOf(bytes: Buffer, from: number, to: number, parse: (text: string) => unknown): unknown[] {
  const items: unknown[] = [];
  for (let start = from; start < to; ) {
    const between = to - start > PIECE_BYTES ? bytes.indexOf(BETWEEN, start + PIECE_BYTES) : -1;
    const end = between === -1 || between >= to ? to : between + 1;
    const values = parse(`[${bytes.toString('utf8', start, end)}]`);
    if (!Array.isArray(values)) throw new Error('not a list');
    for (const value of values) items.push(value);
    start = end === to ? to : end + 1;
  }
  return items;
}

const has = (bytes: Buffer, offset: number, expected: Buffer) =>
  bytes.length - offset >= expected.length &&
  bytes.compare(expected, 0, expected.length, offset, offset + expected.length) === 0;

/**
 * The value of a body laid out as agents write a log batch, or undefined for any other body and for
 * any piece `parse` refuses: the caller then parses the whole text, for the same value or the same
 * error. Cuts fall on ASCII bytes, never inside a character's UTF-8 bytes, so the pieces decode to
 * the whole body's text. `parse` is Fastify's JSON parser (prototype-poisoning checks included); it
 * throws what it refuses.
 */
export function parseLogBatchJson(bytes: Buffer, parse: (text: string) => unknown): object | undefined {
  if (!has(bytes, 0, SEQ)) return undefined;
  let digitsEnd = SEQ.length;
  while (digitsEnd < bytes.length && bytes[digitsEnd]! >= 0x30 && bytes[digitsEnd]! <= 0x39) digitsEnd++;
  const seqText = bytes.toString('latin1', SEQ.length, digitsEnd);
  if (!DIGITS.test(seqText) || !has(bytes, digitsEnd, ACCESS)) return undefined;
  const accessFrom = digitsEnd + ACCESS.length;
  // The first `],"stream":[` ends the access lines, unless it is inside one of them: then a piece
  // of them does not parse.
  const accessTo = bytes.indexOf(STREAM, accessFrom);
  const streamFrom = accessTo + STREAM.length;
  const streamTo = bytes.length - END.length;
  if (accessTo === -1 || streamFrom > streamTo || !has(bytes, streamTo, END)) return undefined;
  try {
    const access = listOf(bytes, accessFrom, accessTo, parse);
    const stream = listOf(bytes, streamFrom, streamTo, parse);
    return { seq: Number(seqText), access, stream };
  } catch {
    return undefined;
  }
}
