import { Cidr, IpAddress } from '@rampart/contracts';
import { fitsSchema } from '../../sites/edgeRules.ts';

/** The URL parser knows IPv6 exactly; the contracts pattern only shapes it loosely (as the master says). */
const isIpv6 = (address: string): boolean => {
  try {
    new URL(`http://[${address}]/`);
    return true;
  } catch {
    return false;
  }
};

const addressParses = (address: string): boolean => !address.includes(':') || isIpv6(address);

/** An IPv4 or IPv6 address or CIDR range the master accepts. */
export const isCidr = (text: string): boolean => fitsSchema(Cidr, text) && addressParses(text.split('/')[0] ?? '');

/** An IPv4 or IPv6 address (no range). */
export const isIpAddress = (text: string): boolean => fitsSchema(IpAddress, text) && addressParses(text);
