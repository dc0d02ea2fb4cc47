import type { Rolldown } from 'vite';
import { type BarrelExports, barrelExports, importClauses } from './importClauses.ts';

type Graph = Pick<Rolldown.PluginContext, 'getModuleIds' | 'getModuleInfo' | 'resolve'>;

interface Need {
  id: string;
  names: readonly string[] | '*';
}

/**
 * Every module that code statically reachable from the roots runs, the roots included. Through a
 * barrel (a package index that only re-exports) only the modules of the names taken from it count:
 * `import { useTranslation } from 'react-i18next'` needs useTranslation.js, not Trans.js. Anything
 * this cannot read (a clause it does not parse, a name it does not find) counts whole.
 */
export async function staticUse(graph: Graph, roots: readonly string[]): Promise<Set<string>> {
  const ids = [...graph.getModuleIds()];
  const barrels = new Map<string, BarrelExports | null>();
  const barrelOf = (id: string) => {
    if (!barrels.has(id)) {
      const code = graph.getModuleInfo(id)?.code;
      barrels.set(id, code ? barrelExports(code) : null);
    }
    return barrels.get(id) ?? null;
  };
  const resolved = async (specifier: string, importer: string) =>
    (await graph.resolve(specifier, importer))?.id ?? null;

  const used = new Set<string>();
  const namesTaken = new Map<string, Set<string>>();
  const queue: Need[] = roots.map((root) => {
    const id = ids.find((candidate) => candidate.endsWith(root));
    if (!id) throw new Error(`staticUse: ${root} is not in the build`);
    return { id, names: '*' };
  });

  /** The modules behind one name of a barrel, or null when the barrel does not say. */
  const behind = async (id: string, barrel: BarrelExports, name: string): Promise<Need[] | null> => {
    const source = barrel.named.get(name);
    if (source) {
      const target = await resolved(source.specifier, id);
      return target ? [{ id: target, names: source.name === '*' ? '*' : [source.name] }] : null;
    }
    const needs: Need[] = [];
    for (const specifier of barrel.stars) {
      const target = await resolved(specifier, id);
      if (!target) return null;
      if (barrelOf(target)) needs.push({ id: target, names: [name] });
      else if (graph.getModuleInfo(target)?.exports.includes(name)) return [{ id: target, names: '*' }];
    }
    return needs.length > 0 ? needs : null;
  };

  /** What a module (its code run whole) takes from the modules it imports. */
  const imports = async (id: string): Promise<Need[]> => {
    const module = graph.getModuleInfo(id);
    if (!module) return [];
    const whole = module.importedIds.map((target): Need => ({ id: target, names: '*' }));
    if (!module.code || !module.importedIds.some((target) => barrelOf(target))) return whole;
    const needs: Need[] = [];
    const covered = new Set<string>();
    for (const clause of importClauses(module.code)) {
      const target = await resolved(clause.specifier, id);
      if (!target) continue;
      covered.add(target);
      needs.push({ id: target, names: clause.names });
    }
    return [...needs, ...whole.filter((need) => !covered.has(need.id))];
  };

  /** On a barrel's first visit: the modules of its `export *` that export nothing (types only) load with it. */
  const emptyStars = async (id: string, barrel: BarrelExports): Promise<Need[]> => {
    const needs: Need[] = [];
    for (const specifier of barrel.stars) {
      const target = await resolved(specifier, id);
      if (target && graph.getModuleInfo(target)?.exports.length === 0) needs.push({ id: target, names: '*' });
    }
    return needs;
  };

  for (let need = queue.pop(); need !== undefined; need = queue.pop()) {
    const barrel = barrelOf(need.id);
    if (!barrel) {
      if (used.has(need.id)) continue;
      used.add(need.id);
      queue.push(...(await imports(need.id)));
      continue;
    }
    used.add(need.id);
    let taken = namesTaken.get(need.id);
    if (!taken) {
      taken = new Set();
      namesTaken.set(need.id, taken);
      queue.push(...(await emptyStars(need.id, barrel)));
    }
    if (taken.has('*')) continue;
    if (need.names === '*') {
      taken.add('*');
      queue.push(...(graph.getModuleInfo(need.id)?.importedIds ?? []).map((id): Need => ({ id, names: '*' })));
      continue;
    }
    for (const name of need.names) {
      if (taken.has(name)) continue;
      taken.add(name);
      queue.push(...((await behind(need.id, barrel, name)) ?? [{ id: need.id, names: '*' }]));
    }
  }
  return used;
}
