import { describe, expect, it } from 'vitest';
import { dropEmpty } from './dropEmpty.ts';

describe('dropEmpty', () => {
  it('leaves out empty strings, null and undefined but keeps false and 0', () => {
    expect(dropEmpty({ account: 'a', captcha: '', code: undefined, qq: null, accept: false, n: 0 })).toEqual({
      account: 'a',
      accept: false,
      n: 0,
    });
  });
});
