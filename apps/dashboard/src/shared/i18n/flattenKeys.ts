import type { LocaleTree } from './translations.ts';

/** Every leaf key of a locale tree as a dotted path, sorted. */
export const flattenKeys = (tree: LocaleTree, prefix = ''): string[] =>
  Object.entries(tree)
    .flatMap(([key, value]) =>
      typeof value === 'string' ? [`${prefix}${key}`] : flattenKeys(value, `${prefix}${key}.`),
    )
    .sort();
