import { isIP } from 'node:net';

/**
 * A small MaxMind DB writer for tests (https://maxmind.github.io/MaxMind-DB/): an IPv6 search tree
 * with 24-bit records, IPv4 networks placed in ::/96 (where readers look IPv4 addresses up), a data
 * section of maps, strings and unsigned integers, and the metadata after "\xAB\xCD\xEFMaxMind.com".
 */

export type MmdbValue = string | number | MmdbValue[] | { [key: string]: MmdbValue };

export interface MmdbNetwork {
  /** An IPv4 or IPv6 CIDR range, such as 127.0.0.0/8 or ::1/128. */
  cidr: string;
  data: { [key: string]: MmdbValue };
}

function header(type: number, size: number): Buffer {
  const extended = type > 7;
  const first = (extended ? 0 : type << 5) & 0xe0;
  const bytes: number[] = [];
  let sizeBits: number;
  const extra: number[] = [];
  if (size < 29) sizeBits = size;
  else if (size < 285) {
    sizeBits = 29;
    extra.push(size - 29);
  } else if (size < 65821) {
    sizeBits = 30;
    extra.push((size - 285) >> 8, (size - 285) & 0xff);
  } else {
    sizeBits = 31;
    const rest = size - 65821;
    extra.push((rest >> 16) & 0xff, (rest >> 8) & 0xff, rest & 0xff);
  }
  bytes.push(first | sizeBits);
  if (extended) bytes.push(type - 7);
  return Buffer.from([...bytes, ...extra]);
}

function unsigned(type: number, value: number | bigint): Buffer {
  let big = BigInt(value);
  const digits: number[] = [];
  while (big > 0n) {
    digits.unshift(Number(big & 0xffn));
    big >>= 8n;
  }
  return Buffer.concat([header(type, digits.length), Buffer.from(digits)]);
}

/** One data field: strings as utf8, numbers as uint32 (uint64 past it), arrays, maps. */
export function encodeValue(value: MmdbValue | bigint): Buffer {
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([header(2, text.length), text]);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return unsigned(BigInt(value) > 0xffffffffn ? 9 : 6, value);
  }
  if (Array.isArray(value)) return Buffer.concat([header(11, value.length), ...value.map(encodeValue)]);
  const entries = Object.entries(value);
  return Buffer.concat([
    header(7, entries.length),
    ...entries.flatMap(([key, item]) => [encodeValue(key), encodeValue(item)]),
  ]);
}

/** The 128 bits of an address as 0/1 numbers (IPv4 as ::a.b.c.d, where readers look it up). */
function bitsOf(cidr: string): number[] {
  const [address = '', prefixText] = cidr.split('/');
  const family = isIP(address);
  if (family === 0) throw new Error(`${cidr}: not an address`);
  let bytes: number[];
  if (family === 4) bytes = [...new Array<number>(12).fill(0), ...address.split('.').map(Number)];
  else {
    const [head = '', tail = ''] = address.split('::');
    const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
    const left = groups(head);
    const right = address.includes('::') ? groups(tail) : [];
    const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
    bytes = all.flatMap((group) => [group >> 8, group & 0xff]);
  }
  const prefix = (prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText)) + (family === 4 ? 96 : 0);
  const bits: number[] = [];
  for (let i = 0; i < prefix; i++) bits.push(((bytes[i >> 3] as number) >> (7 - (i & 7))) & 1);
  return bits;
}

interface TreeNode {
  children: [TreeNode | number | null, TreeNode | number | null];
  index: number;
}

/** A database that maps each of `networks` to its data (later networks win where they overlap). */
export function writeMmdb(
  networks: readonly MmdbNetwork[],
  options: { databaseType?: string; buildEpoch?: number } = {},
): Buffer {
  const dataParts: Buffer[] = [];
  let dataLength = 0;
  const root: TreeNode = { children: [null, null], index: 0 };
  for (const network of networks) {
    const encoded = encodeValue(network.data);
    const offset = dataLength;
    dataParts.push(encoded);
    dataLength += encoded.length;
    const bits = bitsOf(network.cidr);
    if (bits.length === 0) throw new Error('a network of the whole address space is not supported');
    let node = root;
    for (let depth = 0; depth < bits.length - 1; depth++) {
      const bit = bits[depth] as 0 | 1;
      const child = node.children[bit];
      if (child === null || typeof child === 'number') {
        // Split a data leaf: both halves keep its data.
        const next: TreeNode = { children: [child, child], index: 0 };
        node.children[bit] = next;
        node = next;
      } else node = child;
    }
    node.children[bits[bits.length - 1] as 0 | 1] = offset;
  }
  // Number the nodes breadth first: the root is node 0.
  const nodes: TreeNode[] = [];
  const queue: TreeNode[] = [root];
  while (queue.length > 0) {
    const node = queue.shift() as TreeNode;
    node.index = nodes.length;
    nodes.push(node);
    for (const child of node.children) if (child !== null && typeof child === 'object') queue.push(child);
  }
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * 6);
  const record = (child: TreeNode | number | null) =>
    child === null ? nodeCount : typeof child === 'number' ? nodeCount + 16 + child : child.index;
  for (const node of nodes) {
    tree.writeUIntBE(record(node.children[0]), node.index * 6, 3);
    tree.writeUIntBE(record(node.children[1]), node.index * 6 + 3, 3);
  }
  // Readers check the metadata's types: versions, ip_version and record_size are uint16, build_epoch uint64.
  const field = (key: string, value: Buffer) => [encodeValue(key), value];
  const metadata = Buffer.concat([
    header(7, 9),
    ...field('binary_format_major_version', unsigned(5, 2)),
    ...field('binary_format_minor_version', unsigned(5, 0)),
    ...field('build_epoch', unsigned(9, options.buildEpoch ?? 1_764_300_000)),
    ...field('database_type', encodeValue(options.databaseType ?? 'Rampart-Test-Country')),
    ...field('description', encodeValue({ en: 'test database' })),
    ...field('ip_version', unsigned(5, 6)),
    ...field('languages', encodeValue(['en'])),
    ...field('node_count', unsigned(6, nodeCount)),
    ...field('record_size', unsigned(5, 24)),
  ]);
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...dataParts,
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com'),
    metadata,
  ]);
}
