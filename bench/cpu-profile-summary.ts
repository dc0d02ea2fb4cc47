// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the top functions by self time and by
// inclusive time (a function's own samples plus its callees', each sample counted once per function
// even under recursion), as percentages of all samples. Usage:
//   node_modules/.bin/node bench/cpu-profile-summary.ts <file.cpuprofile> [top=25] [last-seconds] [--markdown]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ROOT } from './support.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface FunctionCost {
  name: string;
  selfPercent: number;
  totalPercent: number;
}

/** `function file:line`, with the path relative to the repository and node_modules shortened. */
function labelOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.startsWith('file://') ? relative(ROOT, decodeURI(url.slice('file://'.length))) : url;
  const short = file.replace(/^node_modules\//, '~/').replace(/^apps\/master\/src\//, 'master/');
  return `${functionName || '(anonymous)'} ${short ? `${short}:${lineNumber + 1}` : ''}`.trim();
}

/**
 * Self and inclusive percentage of every function (by label) in the profile; with `lastSeconds`, of
 * the samples of that many seconds before the profile ended only (the load, not the start-up).
 */
export function summarise(profile: CpuProfile, lastSeconds = Number.POSITIVE_INFINITY): FunctionCost[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // Weight each sample by its time delta: samples are not evenly spaced under load.
  const selfTime = new Map<number, number>();
  let all = 0;
  const from = profile.endTime - lastSeconds * 1e6;
  let at = profile.endTime - profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  profile.samples.forEach((id, index) => {
    const delta = Math.max(0, profile.timeDeltas[index] ?? 0);
    at += profile.timeDeltas[index] ?? 0;
    if (at < from) return;
    selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
    all += delta;
  });
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const leaf = byId.get(id);
    if (!leaf) continue;
    const leafLabel = labelOf(leaf);
    self.set(leafLabel, (self.get(leafLabel) ?? 0) + time);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      const label = labelOf(node);
      if (seen.has(label)) continue;
      seen.add(label);
      total.set(label, (total.get(label) ?? 0) + time);
    }
  }
  return [...total.keys()].map((name) => ({
    name,
    selfPercent: (100 * (self.get(name) ?? 0)) / all,
    totalPercent: (100 * (total.get(name) ?? 0)) / all,
  }));
}

function table(rows: FunctionCost[], markdown: boolean): string {
  const line = (row: FunctionCost) =>
    markdown
      ? `| ${row.selfPercent.toFixed(1)} | ${row.totalPercent.toFixed(1)} | \`${row.name}\` |`
      : `${row.selfPercent.toFixed(1).padStart(6)} ${row.totalPercent.toFixed(1).padStart(6)}  ${row.name}`;
  const head = markdown ? '| self % | total % | function |\n|---|---|---|' : '  self  total  function';
  return [head, ...rows.map(line)].join('\n');
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const markdown = args.includes('--markdown');
  const [file, topText, lastText] = args.filter((arg) => arg !== '--markdown');
  if (!file) throw new Error('usage: cpu-profile-summary.ts <file.cpuprofile> [top] [last-seconds] [--markdown]');
  const top = Number(topText ?? 25);
  const costs = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(lastText ?? Infinity));
  console.log(`By self time (top ${top}):`);
  console.log(table([...costs].sort((a, b) => b.selfPercent - a.selfPercent).slice(0, top), markdown));
  console.log(`\nBy inclusive time (top ${top}):`);
  console.log(table([...costs].sort((a, b) => b.totalPercent - a.totalPercent).slice(0, top), markdown));
}
