import { isIpOrCidr } from './ipText.ts';

/** The allow list as typed (one address or range a line, or separated by commas or spaces), and the first bad entry. */
export const parseAllowIps = (text: string): { ips: string[]; invalid: string | null } => {
  const ips = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  return { ips, invalid: ips.find((entry) => !isIpOrCidr(entry)) ?? null };
};

export const allowIpsText = (ips: readonly string[]): string => ips.join('\n');
