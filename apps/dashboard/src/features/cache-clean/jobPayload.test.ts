import { describe, expect, it } from 'vitest';
import { badUrl, jobUrls } from './jobPayload.ts';

describe('cache job URLs', () => {
  it('reads one URL per line', () => {
    expect(jobUrls(' http://a.example.com/x \n\nhttps://b.example.com/\n')).toEqual([
      'http://a.example.com/x',
      'https://b.example.com/',
    ]);
  });

  it('names the first URL the master would refuse', () => {
    expect(badUrl(['http://a.example.com/x', 'https://b.example.com/dir/'])).toBeUndefined();
    expect(badUrl(['http://a.example.com/x', 'ftp://a.example.com/'])).toBe('ftp://a.example.com/');
    expect(badUrl(['http://a.example.com/a b'])).toBe('http://a.example.com/a b');
    expect(badUrl(['http://'])).toBe('http://');
  });
});
