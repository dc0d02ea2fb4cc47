const BIT_UNITS = ['bps', 'Kbps', 'Mbps', 'Gbps', 'Tbps'];
const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

const scaled = (value: number, units: readonly string[], language: string): string => {
  let index = 0;
  let amount = value;
  while (Math.abs(amount) >= 1000 && index < units.length - 1) {
    amount /= 1000;
    index++;
  }
  return `${amount.toLocaleString(language, { maximumFractionDigits: index === 0 ? 0 : 2 })} ${units[index]}`;
};

/** Bits per second in decimal units (network speeds are quoted that way). */
export const formatBitRate = (bitsPerSecond: number, language: string): string =>
  scaled(bitsPerSecond, BIT_UNITS, language);

export const formatBytes = (bytes: number, language: string): string => scaled(bytes, BYTE_UNITS, language);

export const formatPercent = (ratio: number, language: string): string =>
  ratio.toLocaleString(language, { style: 'percent', maximumFractionDigits: 1 });

export const formatNumber = (value: number, language: string): string =>
  value.toLocaleString(language, { maximumFractionDigits: 2 });
