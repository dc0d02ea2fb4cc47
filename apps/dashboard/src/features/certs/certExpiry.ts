export const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

/** Whole days until a certificate expires (negative once it has). */
export const daysLeft = (notAfter: string, now: number): number => Math.floor((Date.parse(notAfter) - now) / DAY_MS);

/** `expired`, `soon` (under 30 days) or `ok`: how the expiry column highlights a certificate. */
export const expiryState = (notAfter: string, now: number): 'expired' | 'soon' | 'ok' => {
  const days = daysLeft(notAfter, now);
  if (days < 0) return 'expired';
  return days < EXPIRY_WARNING_DAYS ? 'soon' : 'ok';
};

/** The upload body: a blank name is left out so the master names the certificate after its first DNS name. */
export const uploadCertBody = (values: { name?: string; cert?: string; key?: string }) => {
  const name = values.name?.trim();
  return { cert: (values.cert ?? '').trim(), key: (values.key ?? '').trim(), ...(name && { name }) };
};

/** The download's file name: the certificate name with anything unsafe for a file name replaced. */
export const certFileName = (name: string): string => `${name.replace(/[^A-Za-z0-9._-]+/g, '_') || 'certificate'}.pem`;
