import { BanReason, CreateBanBody } from '@rampart/contracts';
import { fitsSchema } from '../../sites/edgeRules.ts';
import { isCidr } from './address.ts';
import { checkInteger, type Problem, quoted, rangeOf } from './problems.ts';

/** The manual ban form; site 0 bans on every site (admins only). */
export interface BanDraft {
  site_id?: number | null;
  cidr: string;
  seconds?: number | null;
  reason?: string;
}

export const NEW_BAN: BanDraft = { site_id: null, cidr: '', seconds: 3600, reason: '' };
export const BAN_SECONDS = rangeOf(CreateBanBody.properties.seconds);
const REASON_MAX = (BanReason as { maxLength?: number }).maxLength ?? 256;

export const checkBanCidr = (value: unknown): Problem | undefined => {
  const cidr = typeof value === 'string' ? value.trim() : '';
  return isCidr(cidr) ? undefined : { key: 'cidr', values: { value: quoted(cidr) } };
};

export const checkBanSeconds = (value: unknown): Problem | undefined => checkInteger(value, BAN_SECONDS);

export const checkBanSite = (value: unknown, admin: boolean): Problem | undefined =>
  typeof value === 'number' && Number.isInteger(value) && (value >= 1 || (admin && value === 0))
    ? undefined
    : { key: 'banSite' };

export const checkReason = (value: unknown): Problem | undefined =>
  value === undefined || (typeof value === 'string' && fitsSchema(BanReason, value.trim()))
    ? undefined
    : { key: 'reason', values: { max: REASON_MAX } };

/** POST /v1/monitor/site/blackip; an empty reason is left out. */
export const banBody = (draft: BanDraft): CreateBanBody => {
  const reason = (draft.reason ?? '').trim();
  return {
    site_id: draft.site_id ?? 0,
    cidr: draft.cidr.trim(),
    seconds: draft.seconds ?? BAN_SECONDS.min,
    ...(reason !== '' && { reason }),
  };
};
