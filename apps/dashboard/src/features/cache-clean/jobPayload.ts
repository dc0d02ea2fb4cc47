export type { Job, JobType } from '@rampart/contracts';

/** The master's URL rule: absolute http(s), printable ASCII, 8 to 2048 characters. */
const URL_PATTERN = /^https?:\/\/[\x21-\x7e]+$/;

/** The URLs of a one-per-line text box. */
export const jobUrls = (text: string | undefined): string[] =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The first URL the master would refuse for its shape (not for its site), if any. */
export const badUrl = (urls: readonly string[]): string | undefined =>
  urls.find((url) => url.length < 8 || url.length > 2048 || !URL_PATTERN.test(url));
