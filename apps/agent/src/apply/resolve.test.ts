import { describe, expect, it } from 'vitest';
import { makeSite, makeSnapshot, makeStream } from '../testing/snapshots.ts';
import { resolveOrigins } from './resolve.ts';

describe('resolveOrigins', () => {
  it('names every site and stream with an origin host that does not resolve, and asks once per name', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      if (host.endsWith('.invalid')) throw new Error('ENOTFOUND');
      return ['192.0.2.7', '2001:db8::7'];
    };
    const origin = (address: string) => ({ address, port: 80, weight: 1, backup: false });
    const snapshot = makeSnapshot({
      sites: [
        makeSite({ id: 1, origins: [origin('10.0.0.1'), origin('ok.example.com')] }),
        makeSite({ id: 2, origins: [origin('gone.invalid'), origin('ok.example.com')] }),
        makeSite({ id: 3, origins: [origin('gone.invalid')], enabled: false }),
      ],
      streams: [makeStream({ id: 4, origins: [origin('gone.invalid'), origin('::1')] })],
    });
    const { errors, addresses } = await resolveOrigins(snapshot, resolve);
    expect(errors).toEqual([
      { kind: 'site', id: 2, error: 'origin host gone.invalid does not resolve' },
      { kind: 'stream', id: 4, error: 'origin host gone.invalid does not resolve' },
    ]);
    expect(addresses).toEqual(new Map([['ok.example.com', ['192.0.2.7', '2001:db8::7']]]));
    expect(asked.sort()).toEqual(['gone.invalid', 'ok.example.com']);
  });

  it('treats a lookup that answers no address like one that fails', async () => {
    const snapshot = makeSnapshot({
      sites: [makeSite({ id: 1, origins: [{ address: 'empty.example.com', port: 80, weight: 1, backup: false }] })],
    });
    const { errors } = await resolveOrigins(snapshot, async () => ['not an address']);
    expect(errors).toEqual([{ kind: 'site', id: 1, error: 'origin host empty.example.com does not resolve' }]);
  });

  it('treats a lookup that hangs as a failure', async () => {
    const snapshot = makeSnapshot({
      sites: [makeSite({ id: 1, origins: [{ address: 'slow.example.com', port: 80, weight: 1, backup: false }] })],
    });
    const { errors } = await resolveOrigins(snapshot, () => new Promise(() => undefined), 20);
    expect(errors).toEqual([{ kind: 'site', id: 1, error: 'origin host slow.example.com does not resolve' }]);
  });
});
