import { describe, expect, it } from 'vitest';
import { conditionVectors, requestLines, vectorLogLine } from './condition-vectors.ts';
import { byteString, edgeRequest, splitRequestUri } from './nginx-request.ts';
import { compileCondition, pcreToRegExp } from './preview-conditions.ts';
import { requiredLiteral } from './preview-sql.ts';

const vectors = conditionVectors();

describe('conditions over the access log, against the edge', () => {
  it.each(vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const compiled = compileCondition(vector.condition);
    if (vector.log_lacks) {
      expect(compiled.kind).toBe('not_evaluated');
      return;
    }
    if (compiled.kind !== 'test') throw new Error(`not evaluated: ${compiled.reason}`);
    const request = edgeRequest(vectorLogLine(vector.request));
    // The path and query as nginx derives them from the logged $request_uri.
    expect(request.uri).toBe(byteString(vector.request.uri ?? ''));
    expect(request.args).toBe(vector.request.args);
    expect(compiled.test(request)).toBe(vector.expected);
  });

  it('covers every field, op, negation and header the edge knows', () => {
    const seen = new Set(vectors.map(({ condition }) => `${condition.field} ${condition.op}`));
    for (const pair of ['ip cidr', 'path prefix', 'path equals', 'path contains', 'path regex', 'query equals']) {
      expect(seen).toContain(pair);
    }
    for (const field of ['method', 'host', 'country', 'user_agent', 'referer', 'header']) {
      expect([...seen].some((pair) => pair.startsWith(`${field} `))).toBe(true);
    }
    expect(vectors.some((vector) => vector.condition.negate)).toBe(true);
  });
});

describe('nginx request line', () => {
  it.each(requestLines().map((line) => [line.request_uri, line] as const))('%s', (_name, line) => {
    const split = splitRequestUri(line.request_uri);
    expect(split.uri).toBe(line.uri === null ? null : byteString(line.uri));
    if (line.uri !== null) expect(split.args).toBe(line.args);
  });

  it('refuses a request line that is no path', () => {
    expect(splitRequestUri('x').uri).toBeNull();
  });
});

describe('PCRE patterns in JavaScript', () => {
  it('refuses what PCRE reads otherwise instead of guessing', () => {
    for (const pattern of ['\\Acurl', '[[:alpha:]]', '\\Qa.b\\E', '\\x{41}', '(?x) a', '[]a]', 'a\\vb', '(?-i)a']) {
      expect(pcreToRegExp(pattern), pattern).toBeNull();
    }
    expect(pcreToRegExp('\\x41')?.test('A')).toBe(true);
  });
});

describe('literals a pattern requires', () => {
  it('finds the anchored start or the longest plain run, and nothing under a top-level alternation', () => {
    expect(requiredLiteral('^/wp-(admin|login)')).toEqual({ text: '/wp-', at: 'prefix', caseless: false });
    expect(requiredLiteral('(?i)^/ADMIN')).toEqual({ text: '/admin', at: 'prefix', caseless: true });
    expect(requiredLiteral('\\.php$')).toEqual({ text: '.php', at: 'contains', caseless: false });
    expect(requiredLiteral('^/items?/x')).toEqual({ text: '/item', at: 'prefix', caseless: false });
    expect(requiredLiteral('ab+cd')).toEqual({ text: 'ab', at: 'contains', caseless: false });
    expect(requiredLiteral('a+bcd')).toEqual({ text: 'bcd', at: 'contains', caseless: false });
    expect(requiredLiteral('^[a-z]+/login')).toEqual({ text: '/login', at: 'contains', caseless: false });
    expect(requiredLiteral('x{0,2}yz')).toEqual({ text: 'yz', at: 'contains', caseless: false });
    expect(requiredLiteral('curl|wget')).toBeNull();
    expect(requiredLiteral('(?s)a.b')).toBeNull();
    expect(requiredLiteral('\\d+')).toBeNull();
  });
});
