import type { LineView } from '@rampart/contracts';

/** A line's name in the page's language, with its provider where it is one provider's line. */
export function lineName(lines: readonly LineView[], id: number, language: string): string {
  const line = lines.find((entry) => entry.id === id);
  if (!line) return `#${id}`;
  const name = language.startsWith('zh') ? line.name_zh : line.name_en;
  return line.provider ? `${name} (${line.provider})` : name;
}
