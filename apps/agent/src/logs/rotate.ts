import { rename, stat } from 'node:fs/promises';

/**
 * Moves a log file that grew past `maxBytes` to `<path>.1` and has nginx reopen its logs. Not while
 * the tailer is still reading the previous `.1` (`readingIno`): that would overwrite unread lines.
 */
export async function rotateIfLarge(
  path: string,
  maxBytes: number,
  readingIno: number | null,
  reopen: () => Promise<unknown>,
): Promise<boolean> {
  const size = await stat(path).then(
    (s) => s.size,
    () => 0,
  );
  if (size < maxBytes) return false;
  const rotated = `${path}.1`;
  const previous = await stat(rotated).catch(() => null);
  if (previous && readingIno !== null && previous.ino === readingIno) return false;
  await rename(path, rotated);
  await reopen();
  return true;
}
