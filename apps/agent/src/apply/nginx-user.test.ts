import { describe, expect, it } from 'vitest';
import { defaultNginxUser, workerIds } from './nginx-user.ts';

const PASSWD = [
  'root:x:0:0:root:/root:/bin/bash',
  'www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin',
  'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
  'broken:x::',
].join('\n');

describe('the user nginx workers run as', () => {
  it('is www-data for a root agent when the system has it, else nginx’s own default', () => {
    expect(defaultNginxUser(0, PASSWD)).toBe('www-data');
    expect(defaultNginxUser(0, 'root:x:0:0::/root:/bin/sh')).toBeNull();
    expect(defaultNginxUser(1000, PASSWD)).toBeNull();
  });

  it('has the ids of the user directive’s user, or of nobody without one', () => {
    expect(workerIds('www-data', PASSWD)).toEqual({ uid: 33, gid: 33 });
    expect(workerIds('www-data www-data', PASSWD)).toEqual({ uid: 33, gid: 33 });
    expect(workerIds(null, PASSWD)).toEqual({ uid: 65534, gid: 65534 });
    expect(workerIds('www', PASSWD)).toBeNull();
    expect(workerIds('broken', PASSWD)).toBeNull();
  });
});
