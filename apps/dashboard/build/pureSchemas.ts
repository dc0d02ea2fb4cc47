import type { Plugin } from 'vite';

const CONTRACTS = /\/packages\/contracts\/src\/[^/]+(\/[^/]+)*\.ts$/;
const SCHEMA_CALL = /(?<![\w.$])Type\.(?=[A-Z]\w*\s*\()/g;

/** Marks every `Type.X(...)` call of the contracts as pure (a comment before it; lines keep their number). */
export const markSchemaCallsPure = (code: string): string => code.replace(SCHEMA_CALL, '/* @__PURE__ */ Type.');

/**
 * TypeBox's builders only return schema objects, but the bundler cannot know it: without this, a
 * page that needs one constant of a contracts file (the route records, a length limit) also ships
 * every schema built at the top of that file, and TypeBox under them. The dashboard validates nothing
 * with them at run time, so an unused schema can go.
 */
export function pureSchemas(): Plugin {
  return {
    name: 'rampart-pure-schemas',
    apply: 'build',
    transform(code, id) {
      if (!CONTRACTS.test(id)) return null;
      return { code: markSchemaCallsPure(code), map: null };
    },
  };
}
