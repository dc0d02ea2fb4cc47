/** What one `import … from`, `import '…'` or `export … from` statement takes from a specifier. */
export interface ImportClause {
  specifier: string;
  /** The names taken ('default' for a default import), or '*' for the whole module. */
  names: readonly string[] | '*';
}

/** What a module that only re-exports others (a package's index) exports, and from where. */
export interface BarrelExports {
  /** Exported name → the specifier it comes from and its name there ('*' for a namespace). */
  named: Map<string, { specifier: string; name: string }>;
  /** `export * from` specifiers, in order. */
  stars: string[];
}

const COMMENTS = /\/\*[\s\S]*?\*\/|(?<![:"'\\])\/\/[^\n]*/g;
// A statement starts a line or follows `;` or `}`; its clause holds no quote, `;` nor another statement.
const FROM_STATEMENT =
  /(?:^|[;\n}])\s*(import|export)\s*((?:(?!\b(?:import|export)\b)[^;'"])*?)\s*from\s*(["'])([^"'\n]+)\3/g;
const BARE_IMPORT = /(?:^|[;\n}])\s*import\s*(["'])([^"'\n]+)\1/g;

const withoutComments = (code: string) => code.replace(COMMENTS, '');

/** `a`, `a as b`, `default as b`, `type a` in braces → [source name, local or exported name]. */
const bracedNames = (inner: string): [string, string][] =>
  inner
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((part) => {
      const [source = part, alias] = part.split(/\s+as\s+/);
      return [source.trim(), (alias ?? source).trim()];
    });

const clauseNames = (clause: string): readonly string[] | '*' => {
  if (clause.includes('*')) return '*';
  const brace = clause.indexOf('{');
  const head = (brace === -1 ? clause : clause.slice(0, brace)).replace(/,\s*$/, '').trim();
  const names = head && head !== 'type' ? ['default'] : [];
  if (brace !== -1)
    names.push(...bracedNames(clause.slice(brace + 1, clause.lastIndexOf('}'))).map(([source]) => source));
  return names;
};

/** The static imports and re-exports of a module's code (dynamic `import()` is left out). */
export function importClauses(code: string): ImportClause[] {
  const text = withoutComments(code);
  const clauses: ImportClause[] = [];
  for (const [, , clause = '', , specifier = ''] of text.matchAll(FROM_STATEMENT))
    clauses.push({ specifier, names: clauseNames(clause) });
  for (const [, , specifier = ''] of text.matchAll(BARE_IMPORT)) clauses.push({ specifier, names: [] });
  return clauses;
}

const STATEMENT_END = /;|\n(?=\s*(?:import|export)\b)/;

/**
 * The exports of a module made only of imports and re-exports (a directive such as "use client"
 * aside), or null when the module has code of its own or exports nothing.
 */
export function barrelExports(code: string): BarrelExports | null {
  const statements = withoutComments(code)
    .split(STATEMENT_END)
    .map((statement) => statement.trim())
    .filter((statement) => statement && !/^["'][^"']*["']$/.test(statement));
  if (statements.length === 0) return null;
  const named = new Map<string, { specifier: string; name: string }>();
  const stars: string[] = [];
  const imported = new Map<string, { specifier: string; name: string }>();
  const localExports: [string, string][] = [];
  for (const statement of statements) {
    const fromMatch = /^(import|export)\s*([\s\S]*?)\s*from\s*["']([^"']+)["']$/.exec(statement);
    if (fromMatch) {
      const [, keyword, clause = '', specifier = ''] = fromMatch;
      const namespace = /^\*\s*as\s+([\w$]+)$/.exec(clause);
      if (keyword === 'export' && clause === '*') stars.push(specifier);
      else if (namespace?.[1]) (keyword === 'export' ? named : imported).set(namespace[1], { specifier, name: '*' });
      else if (/^\{[\s\S]*\}$/.test(clause)) {
        for (const [source, alias] of bracedNames(clause.slice(1, -1)))
          (keyword === 'export' ? named : imported).set(alias, { specifier, name: source });
      } else if (keyword === 'import' && /^[\w$]+$/.test(clause)) imported.set(clause, { specifier, name: 'default' });
      else return null;
      continue;
    }
    const exportList = /^export\s*\{([\s\S]*)\}$/.exec(statement);
    if (exportList) {
      localExports.push(...bracedNames(exportList[1] ?? ''));
      continue;
    }
    if (/^import\s*["'][^"']+["']$/.test(statement)) continue;
    return null;
  }
  for (const [local, exported] of localExports) {
    const source = imported.get(local);
    if (!source) return null;
    named.set(exported, source);
  }
  return named.size > 0 || stars.length > 0 ? { named, stars } : null;
}
