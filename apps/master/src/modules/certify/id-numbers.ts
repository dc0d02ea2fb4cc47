/** The rules live in contracts, so that the dashboard checks a number as the master does. */
export { creditCodeProblem, residentIdProblem } from '@rampart/contracts';

/** The middle hidden, for the user's own view: enough to recognise it, not to copy it. */
export const maskIdNumber = (value: string) => `${value.slice(0, 4)}${'*'.repeat(value.length - 8)}${value.slice(-4)}`;
