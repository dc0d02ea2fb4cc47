import { describe, expect, it } from 'vitest';
import { OptionsError, parseOptions } from './options.ts';

describe('parseOptions', () => {
  const base = [
    '--master',
    'http://master.test:8080',
    '--token',
    'install-token-0123456789',
    '--data-dir',
    '/var/lib/rampart',
  ];

  it('reads the documented command line with defaults', () => {
    const options = parseOptions(base, {});
    expect(options).toMatchObject({
      masters: ['http://master.test:8080'],
      token: 'install-token-0123456789',
      dataDir: '/var/lib/rampart',
      controlPort: 8190,
      listenAddress: '',
      nginxBinary: '/usr/sbin/nginx',
      spoolMaxBytes: 512 * 1024 * 1024,
      stopNginxOnExit: false,
      workerProcesses: 'auto',
    });
  });

  it('takes a value that starts with a dash (an install token can)', () => {
    const options = parseOptions(['--master', 'http://m.test', '--token', '-Xy_0', '--data-dir', '/d'], {});
    expect(options).toMatchObject({ token: '-Xy_0', dataDir: '/d' });
    expect(parseOptions(['--master=http://m.test', '--token=-a', '--data-dir=/d'], {}).token).toBe('-a');
    expect(() => parseOptions(['--master', 'http://m.test', '--data-dir', '--token', 'x'], {})).toThrow();
  });

  it('resolves a relative data directory against where npm was started', () => {
    const options = parseOptions(['--master', 'http://m.test', '--data-dir', 'edge-data'], { INIT_CWD: '/home/op' });
    expect(options.dataDir).toBe('/home/op/edge-data');
  });

  it('takes the nginx binary from RAMPART_NGINX unless --nginx says otherwise', () => {
    expect(parseOptions(base, { RAMPART_NGINX: '/opt/nginx' }).nginxBinary).toBe('/opt/nginx');
    expect(parseOptions([...base, '--nginx', '/x/nginx'], { RAMPART_NGINX: '/opt/nginx' }).nginxBinary).toBe(
      '/x/nginx',
    );
  });

  it('reads the other options', () => {
    const options = parseOptions(
      [
        ...base,
        '--control-port',
        '9190',
        '--spool-max-mb',
        '16',
        '--stop-nginx-on-exit',
        '--listen-address',
        '127.0.0.1',
        '--workers',
        '2',
      ],
      {},
    );
    expect(options).toMatchObject({
      controlPort: 9190,
      spoolMaxBytes: 16 * 1024 * 1024,
      stopNginxOnExit: true,
      listenAddress: '127.0.0.1',
      workerProcesses: 2,
    });
  });

  it('takes several masters separated by commas, from --master or RAMPART_MASTER', () => {
    const list = 'https://m1.test, https://m2.test:8443/,http://[2001:db8::1]:8080';
    const expected = ['https://m1.test', 'https://m2.test:8443', 'http://[2001:db8::1]:8080'];
    expect(parseOptions(['--master', list, '--data-dir', '/d'], {}).masters).toEqual(expected);
    expect(parseOptions(['--data-dir', '/d'], { RAMPART_MASTER: list }).masters).toEqual(expected);
  });

  it('refuses a list of masters with an empty, malformed or repeated one, or too many, naming --master', () => {
    const master = (list: string) => () => parseOptions(['--master', list, '--data-dir', '/d'], {});
    expect(master('https://m1.test,,https://m2.test')).toThrow(
      '--master must be an http(s) URL, or several separated by commas ("" is not one)',
    );
    expect(master('https://m1.test,m2.test')).toThrow('("m2.test" is not one)');
    expect(master('https://m1.test,https://M1.test/')).toThrow(
      '--master must name each master once (https://M1.test/ is there twice)',
    );
    expect(master('http://m.test,http://m.test:80')).toThrow('must name each master once');
    const many = Array.from({ length: 17 }, (_, i) => `https://m${i}.test`).join(',');
    expect(master(many)).toThrow('--master must name at most 16 masters');
    expect(
      parseOptions(['--master', many.split(',').slice(0, 16).join(','), '--data-dir', '/d'], {}).masters,
    ).toHaveLength(16);
  });

  it('refuses missing or malformed values', () => {
    expect(() => parseOptions(['--token', 'x'], {})).toThrow(OptionsError);
    expect(() => parseOptions(['--master', 'ftp://x', '--data-dir', '/d'], {})).toThrow(
      '--master must be an http(s) URL',
    );
    expect(() => parseOptions([...base, '--control-port', '70000'], {})).toThrow(OptionsError);
    expect(() => parseOptions([...base, '--listen-address', '1.2.3.4; evil'], {})).toThrow(OptionsError);
    expect(() => parseOptions([...base, '--bogus'], {})).toThrow();
  });
});
