import { setTimeout as sleep } from 'node:timers/promises';
import { localRequest } from '../local-http.ts';

const CONFIRMATIONS = 3;

/**
 * Polls the control server until /version answers `token` (it does once every worker serves that
 * routing table). A reload that exits 0 can still leave the old config running (a port in use), so
 * only this answer proves the new tree is live. `givenUp` ends the wait early with false; one answer
 * is enough after a swap, which starts no workers.
 */
export async function proveLive(
  port: number,
  token: string,
  timeoutMs: number,
  givenUp: () => Promise<boolean> = async () => false,
  confirmations = CONFIRMATIONS,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let round = 0;
  let streak = 0;
  do {
    const answer = await localRequest({ port, path: '/version', timeoutMs: 500 });
    // Old workers may accept a connection or two after the new ones answer; a few answers in a row
    // leave them time to close their listening sockets.
    streak = answer?.status === 200 && answer.body.trim() === token ? streak + 1 : 0;
    if (streak >= confirmations) return true;
    // Checked every few rounds: for example nginx logged that it refused the reload.
    if (++round % 4 === 0 && (await givenUp())) return false;
    await sleep(streak > 0 ? 30 : 20);
  } while (Date.now() < deadline);
  return false;
}

/**
 * Sites the edge's route loader refused in the live config (a second check behind the renderer's):
 * their hosts are not served; or ('unprotected') sites whose protection did not compile there (a
 * PCRE that does not compile, say): served without it. Empty when it cannot tell.
 */
export async function refusedSites(port: number, list: 'refused' | 'unprotected' = 'refused'): Promise<number[]> {
  const answer = await localRequest({ port, path: `/${list}`, timeoutMs: 1000 });
  if (answer?.status !== 200) return [];
  return answer.body
    .split(',')
    .map((id) => Number(id.trim()))
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}
