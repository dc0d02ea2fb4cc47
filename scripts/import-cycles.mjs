// Import circles make the order of module evaluation matter and keep files from moving apart, so
// the lint step fails on any. Every module reference counts: static value imports order evaluation;
// `import type` and `import()` do not, but each is one edit away from a value import that would
// (a lazy component importing a constant back from its parent is a circle that runs), so a circle
// through them is refused too. Each edge of a printed circle says which kind it is.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const sourceExtension = /\.(ts|tsx|mts|cts)$/;
const declarationFile = /\.d\.[cm]?ts$/;

/** How one module refers to another; the strongest kind wins when there are several. */
const KIND_RANK = { type: 0, dynamic: 1, value: 2 };

/** The module references of one file: `{ specifier, kind }` with kind 'value', 'type' or 'dynamic'. */
export function moduleReferences(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const references = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      references.push({ specifier: node.moduleSpecifier.text, kind: node.importClause?.isTypeOnly ? 'type' : 'value' });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      references.push({ specifier: node.moduleSpecifier.text, kind: node.isTypeOnly ? 'type' : 'value' });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      references.push({ specifier: node.arguments[0].text, kind: 'dynamic' });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      references.push({ specifier: node.argument.literal.text, kind: 'type' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return references;
}

const real = (path) => (existsSync(path) ? realpathSync(path) : path);

/**
 * The import graph of `files` (absolute paths): for each file, a map from each imported file to the
 * kind of the reference, keeping only edges into `targets` (default: `files`).
 */
export function importGraph(files, compilerOptions, targets = files) {
  const known = new Set(targets.map(real));
  const graph = new Map();
  for (const file of files.map(real)) {
    const imported = new Map();
    for (const { specifier, kind } of moduleReferences(file, readFileSync(file, 'utf8'))) {
      const { resolvedModule } = ts.resolveModuleName(specifier, file, compilerOptions, ts.sys);
      const target = resolvedModule && real(resolvedModule.resolvedFileName);
      if (!target || !known.has(target)) continue;
      const before = imported.get(target);
      if (!before || KIND_RANK[kind] > KIND_RANK[before]) imported.set(target, kind);
    }
    graph.set(file, new Map([...imported].sort(([a], [b]) => (a < b ? -1 : 1))));
  }
  return graph;
}

/** Strongly connected components with more than one module, or a module that imports itself (Tarjan). */
function tangledComponents(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** The shortest import path from `start` back to itself inside one component. */
function shortestCycle(graph, start, members) {
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/**
 * Each circle as `{ files, kinds }`: a path of files that starts and ends with the same file, and the
 * kind of each step; one per distinct loop, at least one through every file of a tangle.
 */
export function findImportCycles(graph) {
  const cycles = [];
  const seen = new Set();
  for (const component of tangledComponents(graph)) {
    const members = new Set(component);
    for (const start of component) {
      const cycle = shortestCycle(graph, start, members);
      const loop = cycle.slice(0, -1);
      const first = loop.indexOf([...loop].sort()[0]);
      const key = [...loop.slice(first), ...loop.slice(0, first)].join('\n');
      if (seen.has(key)) continue;
      seen.add(key);
      cycles.push({ files: cycle, kinds: cycle.slice(1).map((file, step) => graph.get(cycle[step]).get(file)) });
    }
  }
  return cycles;
}

/** The source files and compiler options of every workspace under apps/ and packages/. */
function workspaces(root) {
  const found = [];
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const configPath = join(root, group, name, 'tsconfig.json');
      if (!existsSync(configPath)) continue;
      const parsed = ts.getParsedCommandLineOfConfigFile(
        configPath,
        {},
        {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic(diagnostic) {
            throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
          },
        },
      );
      if (!parsed) continue;
      const srcDir = `${join(root, group, name, 'src')}/`;
      const files = parsed.fileNames.filter(
        (file) => resolve(file).startsWith(srcDir) && sourceExtension.test(file) && !declarationFile.test(file),
      );
      found.push({ files: files.map((file) => resolve(file)), options: parsed.options });
    }
  }
  return found;
}

const ARROW = { value: '->', type: '-type->', dynamic: '-import()->' };

/** `a.ts -> b.ts -type-> a.ts`, with paths relative to `root`. */
export function formatCycle(files, kinds, root) {
  return files.map((file, step) => (step === 0 ? '' : ` ${ARROW[kinds[step - 1]]} `) + relative(root, file)).join('');
}

function main() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const graph = new Map();
  // Each workspace resolves with its own options; edges into another workspace's src still count.
  const all = workspaces(root);
  const everyFile = all.flatMap(({ files }) => files);
  for (const { files, options } of all) {
    for (const [file, imported] of importGraph(files, options, everyFile)) graph.set(file, imported);
  }
  const cycles = findImportCycles(graph);
  if (cycles.length === 0) {
    console.log(`import cycles: none in ${graph.size} modules`);
    return;
  }
  console.error(`import cycles: ${cycles.length} found; move the shared piece into a module both can import`);
  for (const { files, kinds } of cycles) console.error(`  ${formatCycle(files, kinds, root)}`);
  process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
