import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Gives the disk blocks of a byte range of a file back in place (util-linux `fallocate
 * --punch-hole`): the file keeps its size and inode, the range reads as zeros, and a writer that
 * appends to it is not disturbed.
 */
export async function punchHole(path: string, offset: number, length: number): Promise<void> {
  if (length <= 0) return;
  await run('fallocate', ['--punch-hole', '--offset', String(offset), '--length', String(length), path]);
}
