import { HOSTILE_VALUES } from '@rampart/contracts/testing';
import fc from 'fast-check';

/** A number written into JSON as is: JSON.stringify cannot write 1e309 (it would be null). */
export class RawNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Values every field must turn down with a 4xx: the classes that once reached the database. */
export const CORE_HOSTILE: readonly unknown[] = [
  new RawNumber('1e21'),
  new RawNumber('99999999999999999999999'),
  new RawNumber('1e309'),
  -1,
  // An id no row has: a reference to it must be a 404, not a foreign key failure.
  999_999,
];

const SPECIAL: readonly unknown[] = [
  0,
  0.5,
  -1e21,
  2 ** 53 + 2,
  new RawNumber('-1e309'),
  true,
  false,
  null,
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e21',
  '1e309',
  '0x10',
  '99999999999999999999999',
  "' OR '1'='1' --",
  '1; DROP TABLE users; --',
  '\r\nX-Injected: 1',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  'x'.repeat(10_000),
  [],
  [[[[]]]],
  {},
  { $gt: '' },
  { a: { b: { c: { d: 1 } } } },
  ['a', 1, null],
];

/** Wrong types, huge and non-finite numbers, empty and huge strings, injection shapes, nested objects. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...CORE_HOSTILE, ...SPECIAL), weight: 4 },
  { arbitrary: fc.constantFrom(...HOSTILE_VALUES), weight: 2 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => new RawNumber(String(n))), weight: 1 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
);

/** JSON text of a body that may hold RawNumbers. */
export function bodyText(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (!(value instanceof RawNumber)) return value;
    raws.push(value.text);
    return `\u0000raw${raws.length - 1}\u0000`;
  });
  return text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_match, index: string) => raws[Number(index)] ?? 'null');
}

/** How a value reads in a URL (path or query). */
export function urlText(value: unknown): string {
  if (value instanceof RawNumber) return value.text;
  if (typeof value === 'string') return value;
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** For messages: what was sent. */
export const describeValue = (value: unknown) => {
  const text = value instanceof RawNumber ? value.text : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} characters)` : text;
};
