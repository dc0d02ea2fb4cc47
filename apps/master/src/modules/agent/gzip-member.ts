import { crc32 } from 'node:zlib';

/** The most a stored deflate block holds. */
const STORED_BLOCK = 65_535;
/** ID1 ID2, deflate, no flags, no time, no extra flags, unknown OS. */
const HEADER = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

/**
 * A gzip member that holds `text` as it is, in stored deflate blocks (RFC 1951 §3.2.4), with its
 * CRC-32 and size (RFC 1952). A config answer is a per-node prefix, the shared snapshot compressed
 * once, and a suffix, each a member of one gzip stream: the prefix is a few hundred bytes, and
 * setting up a compressor for it cost more than the 1,000 answers of a change sent together.
 */
export function storedGzipMember(text: string): Buffer {
  const data = Buffer.from(text, 'utf8');
  const blocks = Math.max(1, Math.ceil(data.length / STORED_BLOCK));
  const member = Buffer.allocUnsafe(HEADER.length + blocks * 5 + data.length + 8);
  member.set(HEADER, 0);
  let at = HEADER.length;
  for (let block = 0; block < blocks; block++) {
    const start = block * STORED_BLOCK;
    const length = Math.min(STORED_BLOCK, data.length - start);
    member[at] = block === blocks - 1 ? 1 : 0; // BFINAL on the last; BTYPE 00, stored
    member.writeUInt16LE(length, at + 1);
    member.writeUInt16LE(length ^ 0xffff, at + 3);
    data.copy(member, at + 5, start, start + length);
    at += 5 + length;
  }
  member.writeUInt32LE(crc32(data), at);
  member.writeUInt32LE(data.length % 2 ** 32, at + 4);
  return member;
}
