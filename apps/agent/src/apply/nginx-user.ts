import { readFileSync } from 'node:fs';

/**
 * The `user` directive for nginx workers: only a root agent can switch users, and then workers run
 * as www-data when the system has it (else nginx's default, nobody). Null: workers run as the agent.
 */
export function defaultNginxUser(uid = process.getuid?.() ?? -1, passwd = readPasswd()): string | null {
  if (uid !== 0) return null;
  return /^www-data:/m.test(passwd) ? 'www-data' : null;
}

/** Whether the workers run as another user than the agent (so the data dir must be traversable). */
export function workersAreOtherUser(uid = process.getuid?.() ?? -1): boolean {
  return uid === 0;
}

function readPasswd(): string {
  try {
    return readFileSync('/etc/passwd', 'utf8');
  } catch {
    return '';
  }
}
