import { CLOCK_SKEW_SECONDS } from '@rampart/contracts';

/** What the node list warns of a node's clock: nothing while it is within the threshold. */
export interface ClockWarning {
  direction: 'ahead' | 'behind';
  unit: 'seconds' | 'minutes';
  amount: number;
}

export function clockWarning(offsetSeconds: number | null): ClockWarning | null {
  if (offsetSeconds === null || Math.abs(offsetSeconds) <= CLOCK_SKEW_SECONDS) return null;
  const seconds = Math.abs(offsetSeconds);
  const direction = offsetSeconds > 0 ? 'ahead' : 'behind';
  return seconds >= 120
    ? { direction, unit: 'minutes', amount: Math.round(seconds / 60) }
    : { direction, unit: 'seconds', amount: seconds };
}
