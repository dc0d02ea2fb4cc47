import { describe, expect, it } from 'vitest';
import { integer, quote, RenderRefusal, regexLiteral, safeText } from './quote.ts';

describe('quote', () => {
  it('wraps safe text in double quotes', () => {
    expect(quote('www.example.com', 'domain')).toBe('"www.example.com"');
    expect(quote('rampart (edge) 1/2 <x>', 'value')).toBe('"rampart (edge) 1/2 <x>"');
  });

  it.each(['a"b', "a'b", 'a\\b', 'a{', '}', 'a;b', '$x', '#', '`', 'a\nb', 'a\rb', 'a\u0000', 'a\tb', 'é', '\u2028'])(
    'refuses %j',
    (value) => {
      expect(() => quote(value, 'field')).toThrow(RenderRefusal);
    },
  );

  it('refuses non-strings and overlong values, naming the field', () => {
    expect(() => safeText(42, 'port')).toThrow('port: must be a string');
    expect(() => safeText('x'.repeat(11), 'name', 10)).toThrow('name: longer than 10 characters');
  });
});

describe('integer', () => {
  it('renders integers in range and refuses anything else', () => {
    expect(integer(8080, 'port', 1, 65535)).toBe('8080');
    for (const value of [0, 65536, 1.5, Number.NaN, '80', '80; evil', null, undefined, 2 ** 60]) {
      expect(() => integer(value, 'port', 1, 65535)).toThrow(RenderRefusal);
    }
  });
});

describe('regexLiteral', () => {
  it('turns the metacharacters a path may hold into one-character classes', () => {
    expect(regexLiteral('/static/v1.2/*+x', 'prefix')).toBe('/static/v1[.]2/[*][+]x');
  });

  it('refuses characters a path prefix cannot hold', () => {
    for (const value of ['/a(b)', '/a|b', '/a?b', '/a^b', '/a[b]', '/a b']) {
      expect(() => regexLiteral(value, 'prefix')).toThrow(RenderRefusal);
    }
  });
});
