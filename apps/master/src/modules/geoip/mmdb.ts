/**
 * Just enough of the MaxMind DB format (https://maxmind.github.io/MaxMind-DB/) to tell whether a
 * file is one: its metadata, found after the last "\xAB\xCD\xEFMaxMind.com" marker in the last
 * 128 KiB, decoded and checked against the size of the search tree it announces.
 */

export const METADATA_MARKER = Buffer.from([0xab, 0xcd, 0xef, ...Buffer.from('MaxMind.com')]);
const METADATA_WINDOW = 128 * 1024;

/** Where the records of a database hold the country code. */
export type CountryPath = 'country_code' | 'country.iso_code';

export interface MmdbMetadata {
  database_type: string;
  build_epoch: number;
  ip_version: number;
  node_count: number;
  record_size: number;
  binary_format_major_version: number;
  country_path: CountryPath;
}

type Value = string | number | bigint | boolean | Buffer | Value[] | { [key: string]: Value };

/** Decodes the data field at `offset` (pointers are relative to `base`); returns it and the next offset. */
function decode(buffer: Buffer, offset: number, base: number, depth = 0): [Value, number] {
  if (depth > 32) throw new Error('nested too deeply');
  const need = (n: number) => {
    if (offset + n > buffer.length) throw new Error('truncated');
  };
  need(1);
  const control = buffer[offset++] as number;
  let type = control >> 5;
  if (type === 1) {
    // Pointer: size bits select 1 to 4 more bytes.
    const size = (control >> 3) & 0x3;
    const low = control & 0x7;
    need(size + 1);
    let pointer: number;
    if (size === 0) pointer = (low << 8) | (buffer[offset] as number);
    else if (size === 1) pointer = ((low << 16) | buffer.readUInt16BE(offset)) + 2048;
    else if (size === 2) pointer = ((low << 24) | buffer.readUIntBE(offset, 3)) + 526336;
    else pointer = buffer.readUInt32BE(offset);
    const [value] = decode(buffer, base + pointer, base, depth + 1);
    return [value, offset + size + 1];
  }
  if (type === 0) {
    need(1);
    type = 7 + (buffer[offset++] as number);
  }
  let size = control & 0x1f;
  if (size === 29) {
    need(1);
    size = 29 + (buffer[offset++] as number);
  } else if (size === 30) {
    need(2);
    size = 285 + buffer.readUInt16BE(offset);
    offset += 2;
  } else if (size === 31) {
    need(3);
    size = 65821 + buffer.readUIntBE(offset, 3);
    offset += 3;
  }
  const unsigned = () => {
    need(size);
    let value = 0n;
    for (let i = 0; i < size; i++) value = (value << 8n) | BigInt(buffer[offset + i] as number);
    offset += size;
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  };
  switch (type) {
    case 2:
      need(size);
      return [buffer.toString('utf8', offset, offset + size), offset + size];
    case 3:
      need(8);
      return [buffer.readDoubleBE(offset), offset + 8];
    case 4:
      need(size);
      return [buffer.subarray(offset, offset + size), offset + size];
    case 5:
    case 6:
    case 9:
    case 10:
      return [unsigned(), offset];
    case 7: {
      const map: { [key: string]: Value } = {};
      for (let i = 0; i < size; i++) {
        const [key, afterKey] = decode(buffer, offset, base, depth + 1);
        if (typeof key !== 'string') throw new Error('a map key is not a string');
        const [value, afterValue] = decode(buffer, afterKey, base, depth + 1);
        map[key] = value;
        offset = afterValue;
      }
      return [map, offset];
    }
    case 8: {
      need(size);
      const value = size === 0 ? 0 : buffer.readIntBE(offset, size);
      return [value, offset + size];
    }
    case 11: {
      const list: Value[] = [];
      for (let i = 0; i < size; i++) {
        const [value, next] = decode(buffer, offset, base, depth + 1);
        list.push(value);
        offset = next;
      }
      return [list, offset];
    }
    case 14:
      return [size !== 0, offset];
    case 15:
      need(4);
      return [buffer.readFloatBE(offset), offset + 4];
    default:
      throw new Error(`unknown data type ${type}`);
  }
}

/** The metadata of a MaxMind DB file, or why the bytes are not one. */
export function readMmdbMetadata(file: Buffer): MmdbMetadata | string {
  const from = Math.max(0, file.length - METADATA_WINDOW);
  const at = file.lastIndexOf(METADATA_MARKER);
  if (at < from || at === -1) return 'not a MaxMind DB file (no "MaxMind.com" metadata marker near its end)';
  const start = at + METADATA_MARKER.length;
  let metadata: Value;
  try {
    [metadata] = decode(file, start, start);
  } catch (error) {
    return `its metadata does not decode (${(error as Error).message})`;
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || Buffer.isBuffer(metadata)) {
    return 'its metadata is not a map';
  }
  const field = (name: string) => metadata[name as keyof typeof metadata] as Value | undefined;
  const number = (name: string) => {
    const value = field(name);
    return typeof value === 'number' ? value : Number.NaN;
  };
  const result: Omit<MmdbMetadata, 'country_path'> = {
    database_type: typeof field('database_type') === 'string' ? (field('database_type') as string) : '',
    build_epoch: number('build_epoch'),
    ip_version: number('ip_version'),
    node_count: number('node_count'),
    record_size: number('record_size'),
    binary_format_major_version: number('binary_format_major_version'),
  };
  if (result.binary_format_major_version !== 2) return 'its binary format is not version 2';
  if (result.ip_version !== 4 && result.ip_version !== 6) return 'its ip_version is neither 4 nor 6';
  if (![24, 28, 32].includes(result.record_size)) return 'its record_size is not 24, 28 or 32';
  if (!Number.isSafeInteger(result.node_count) || result.node_count < 1) return 'its node_count is missing';
  if (!Number.isSafeInteger(result.build_epoch) || result.build_epoch < 0) return 'its build_epoch is missing';
  if (result.database_type === '') return 'its database_type is missing';
  // The search tree, then 16 zero bytes, then the data section, all before the marker.
  const treeBytes = (result.node_count * result.record_size * 2) / 8;
  if (treeBytes + 16 > at) return 'it is shorter than the search tree its metadata announces';
  const path = countryPathOf(file, treeBytes + 16, at);
  if (path === null) return 'its records hold no country code (country_code or country.iso_code)';
  return { ...result, country_path: path };
}

/** How many records of the data section are looked at for a country code. */
const RECORDS_TO_READ = 256;

/**
 * Where the records hold the country code, from the first records of the data section (from
 * `start` to the metadata marker at `end`); null when none of them has one.
 */
function countryPathOf(file: Buffer, start: number, end: number): CountryPath | null {
  const section = file.subarray(0, end);
  let offset = start;
  for (let i = 0; i < RECORDS_TO_READ && offset < end; i++) {
    let value: Value;
    try {
      [value, offset] = decode(section, offset, start);
    } catch {
      return null;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Buffer.isBuffer(value)) continue;
    if (typeof value.country_code === 'string') return 'country_code';
    const country = value.country;
    if (typeof country === 'object' && country !== null && !Array.isArray(country) && !Buffer.isBuffer(country)) {
      if (typeof country.iso_code === 'string') return 'country.iso_code';
    }
  }
  return null;
}
