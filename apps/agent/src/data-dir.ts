import { chmod, chown, mkdir, stat } from 'node:fs/promises';
import type { AgentPaths } from './paths.ts';

/**
 * Creates the data directory layout. When nginx workers run as another user (`workers`: theirs; the
 * agent is root), the directories on their way to the cache and temp paths must be traversable
 * (o+x, not readable), and the logs directory is the workers': after a rotation nginx's master
 * creates the new log files and each worker opens them again by name, which a directory only root
 * may enter would refuse (the workers would go on writing to the rotated file). nginx itself creates
 * and chowns the cache and temp directories.
 */
export async function prepareDataDir(paths: AgentPaths, workers: { uid: number; gid: number } | null): Promise<void> {
  await mkdir(paths.dataDir, { recursive: true, mode: 0o700 });
  for (const dir of [paths.nginxDir, paths.confRoot, paths.tempDir, paths.logsDir]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  }
  await mkdir(paths.spoolDir, { recursive: true, mode: 0o700 });
  await mkdir(`${paths.nginxDir}/run`, { recursive: true, mode: 0o700 });
  if (workers) {
    for (const dir of [paths.dataDir, paths.nginxDir, paths.tempDir]) {
      const { mode } = await stat(dir);
      if ((mode & 0o001) === 0) await chmod(dir, (mode & 0o777) | 0o711);
    }
    await chown(paths.logsDir, workers.uid, workers.gid);
  }
}
