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

/**
 * The uid and gid of the user nginx's workers run as with the `user` directive `nginxUser` (nginx's
 * default, nobody, without one); null when the system has no such user.
 */
export function workerIds(nginxUser: string | null, passwd = readPasswd()): { uid: number; gid: number } | null {
  const name = (nginxUser ?? 'nobody').split(/\s+/)[0];
  const fields = passwd
    .split('\n')
    .find((line) => line.startsWith(`${name}:`))
    ?.split(':');
  const uid = Number(fields?.[2]);
  const gid = Number(fields?.[3]);
  return Number.isInteger(uid) && Number.isInteger(gid) && fields?.[2] !== '' ? { uid, gid } : null;
}

function readPasswd(): string {
  try {
    return readFileSync('/etc/passwd', 'utf8');
  } catch {
    return '';
  }
}
