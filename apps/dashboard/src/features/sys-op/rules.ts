import type { Rule } from 'antd/es/form';

/** The same rules as the contracts (ReleaseVersion, Sha256Hex, MasterAddress), checked before sending. */
export const RELEASE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,31}$/;
export const SHA256_HEX = /^[0-9a-f]{64}$/;
export const MASTER_ADDRESS = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\])(?::[0-9]{1,5})?$/;

export const patternRules = (pattern: RegExp, message: string): Rule[] => [
  { required: true, message },
  { pattern, message },
];

export const integerRules = (min: number, max: number, message: string): Rule[] => [
  { required: true, message },
  { type: 'integer', min, max, message },
];

/** Bytes as the dashboard shows sizes: 1.5 GB, 20 MB, 512 B. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
