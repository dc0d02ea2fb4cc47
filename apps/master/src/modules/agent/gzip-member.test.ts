import { execFileSync } from 'node:child_process';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { storedGzipMember } from './gzip-member.ts';

describe('storedGzipMember', () => {
  const texts = [
    '',
    '}}}',
    '{"code":0,"msg":"ok","data":{"version":7,"ü":"中文"',
    'x'.repeat(65_535),
    'y'.repeat(140_000),
  ];

  it('is a gzip member that decompresses to its text, empty, multi-byte and over one stored block', () => {
    for (const text of texts) expect(gunzipSync(storedGzipMember(text)).toString('utf8')).toBe(text);
  });

  it('joins with compressed members into one stream, as the config answer sends them', () => {
    const stream = Buffer.concat([
      storedGzipMember('{"a":'),
      gzipSync('"shared"', { level: 6 }),
      storedGzipMember('}'),
    ]);
    expect(gunzipSync(stream).toString()).toBe('{"a":"shared"}');
  });

  it('is read by gzip itself, CRC and size checked', () => {
    const text = texts[2] ?? '';
    const out = execFileSync('gzip', ['-dc'], { input: storedGzipMember(text) });
    expect(out.toString('utf8')).toBe(text);
    const corrupt = storedGzipMember(text);
    const crcAt = corrupt.length - 8;
    corrupt.writeUInt8(corrupt.readUInt8(crcAt) ^ 1, crcAt);
    expect(() => execFileSync('gzip', ['-dc'], { input: corrupt, stdio: 'pipe' })).toThrow();
  });
});
