import { describe, expect, it } from 'vitest';
import { reloadRefused } from './applier.ts';
import { attributeTestFailure, failedBindPorts, firstFatal } from './attribution.ts';

const DIR = '/var/lib/rampart-agent/nginx/conf/v7-abc';

describe('attributing nginx failures', () => {
  it('names the site or stream whose file nginx rejected', () => {
    const output = `nginx: [emerg] host not found in upstream "nowhere.invalid:80" in ${DIR}/sites/12.conf:3\nnginx: configuration file ${DIR}/nginx.conf test failed\n`;
    expect(attributeTestFailure(output)).toEqual({
      kind: 'site',
      id: 12,
      error: 'host not found in upstream "nowhere.invalid:80" in sites/12.conf:3',
    });
    expect(
      attributeTestFailure(`nginx: [emerg] invalid port in "x" of the "listen" directive in ${DIR}/streams/4.conf:8`),
    ).toMatchObject({
      kind: 'stream',
      id: 4,
    });
  });

  it('names the certificate nginx could not load', () => {
    const output = `nginx: [emerg] cannot load certificate key "${DIR}/certs/5.key": PEM_read_bio_PrivateKey() failed`;
    expect(attributeTestFailure(output)).toMatchObject({ kind: 'cert', id: 5 });
  });

  it('does not blame anyone for a fault in the main file', () => {
    expect(attributeTestFailure(`nginx: [emerg] unknown directive "foo" in ${DIR}/nginx.conf:12`)).toBeNull();
    expect(
      firstFatal(`2024/01/01 00:00:00 [emerg] 12#12: bind() to 0.0.0.0:80 failed (98: Address already in use)`),
    ).toBe('bind() to 0.0.0.0:80 failed (98: Address already in use)');
  });

  it('lists ports nginx could not bind', () => {
    const log = '[emerg] 1#1: bind() to 127.0.0.1:9000 failed (98)\n[emerg] 1#1: bind() to [::1]:9001 failed (98)\n';
    expect(failedBindPorts(log)).toEqual([9000, 9001]);
  });

  it('knows when nginx has given up a reload (and waits out the bind retries)', () => {
    expect(reloadRefused('')).toBe(false);
    expect(reloadRefused('[notice] 1#1: signal process started')).toBe(false);
    expect(reloadRefused('[emerg] 1#1: unknown directive "x"')).toBe(true);
    expect(reloadRefused('[emerg] 1#1: bind() to 127.0.0.1:80 failed (98: Address already in use)')).toBe(false);
    expect(reloadRefused('[emerg] bind() to 127.0.0.1:80 failed (98)\n[emerg] still could not bind()')).toBe(true);
  });
});
