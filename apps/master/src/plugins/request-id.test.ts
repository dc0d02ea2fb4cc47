import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id.ts';

const request = (headers: Record<string, string | string[]> = {}) => ({ headers }) as unknown as IncomingMessage;

describe('requestIdOf', () => {
  it("keeps the client's id when it is a plain token", () => {
    expect(requestIdOf(request({ 'x-request-id': 'abc.DEF_1-2' }))).toBe('abc.DEF_1-2');
  });

  it('makes a new, different id for each call without one or with one that is not a plain token', () => {
    const made = [
      requestIdOf(request()),
      requestIdOf(request({ 'x-request-id': 'has space' })),
      requestIdOf(request({ 'x-request-id': 'x'.repeat(65) })),
      requestIdOf(request({ 'x-request-id': '' })),
      requestIdOf(request({ 'x-request-id': ['a', 'b'] })),
    ];
    for (const id of made) expect(id).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    expect(new Set(made).size).toBe(made.length);
  });
});
