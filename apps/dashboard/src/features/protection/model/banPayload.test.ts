import { CreateBanBody } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { BAN_SECONDS, banBody, checkBanCidr, checkBanSeconds, checkBanSite, checkReason } from './banPayload.ts';

describe('manual bans', () => {
  it('send the address, the site, the time and a reason only when there is one', () => {
    expect(banBody({ site_id: 5, cidr: ' 203.0.113.0/24 ', seconds: 600, reason: ' ' })).toEqual({
      site_id: 5,
      cidr: '203.0.113.0/24',
      seconds: 600,
    });
    const body = banBody({ site_id: null, cidr: '2001:db8::1', seconds: 60, reason: 'scanner' });
    expect(body).toEqual({ site_id: 0, cidr: '2001:db8::1', seconds: 60, reason: 'scanner' });
    expect(Compile(CreateBanBody).Check(body)).toBe(true);
  });

  it('let only admins ban on every site', () => {
    expect(checkBanSite(0, true)).toBeUndefined();
    expect(checkBanSite(0, false)).toEqual({ key: 'banSite' });
    expect(checkBanSite(null, true)).toEqual({ key: 'banSite' });
    expect(checkBanSite(12, false)).toBeUndefined();
  });

  it('refuse what the master refuses', () => {
    expect(checkBanCidr('198.51.100.7')).toBeUndefined();
    expect(checkBanCidr('198.51.100.7/40')?.key).toBe('cidr');
    expect(checkBanCidr('')?.key).toBe('cidr');
    expect(BAN_SECONDS).toEqual({ min: 1, max: 31_536_000 });
    expect(checkBanSeconds(31_536_001)?.key).toBe('integer');
    expect(checkReason('too many logins')).toBeUndefined();
    expect(checkReason(undefined)).toBeUndefined();
    expect(checkReason('<script>')).toEqual({ key: 'reason', values: { max: 256 } });
    expect(checkReason('a\nb')?.key).toBe('reason');
  });
});
