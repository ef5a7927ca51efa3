/**
 * `parley/no-type-cycle`: an import cycle that type-only imports close. `import-x/no-cycle` leaves
 * out `import type` (and `import { type A }`, `export type … from`, `import("…").T`) — they leave no
 * edge at run time — so a circle of modules that only need each other's types passes it; this rule
 * follows every import, types included, and reports an import whose target leads back to the file
 * being linted. A cycle of value imports alone is left to `import-x/no-cycle`, so one cycle is not
 * reported twice.
 *
 * The graph is read with TypeScript (the repository's tsconfig, its `paths` included): each file's
 * imports are parsed once and kept until the file changes on disk (its modification time), so the
 * whole lint parses each module once.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** @typedef {{ target: string; typeOnly: boolean; specifier: string; start: number; end: number }} Edge */

/** @type {Map<string, { options: ts.CompilerOptions; cache: ts.ModuleResolutionCache }>} */
const projects = new Map();

function projectOf(tsconfig) {
  let project = projects.get(tsconfig);
  if (!project) {
    const read = ts.readConfigFile(tsconfig, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(read.config ?? {}, ts.sys, path.dirname(tsconfig));
    project = { options: parsed.options, cache: ts.createModuleResolutionCache(path.dirname(tsconfig), (name) => name, parsed.options) };
    projects.set(tsconfig, project);
  }
  return project;
}

/** Whether every name an import or export clause lists is marked `type` (and it lists some). */
function allTypeOnly(elements) {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

/** The imports of one file's text, each with whether it brings types only. */
function importsOf(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  /** @type {{ specifier: string; typeOnly: boolean; start: number; end: number }[]} */
  const found = [];
  const add = (literal, typeOnly, node) => found.push({ specifier: literal.text, typeOnly, start: node.getStart(source), end: node.getEnd() });
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (!clause.name && bindings !== undefined && ts.isNamedImports(bindings) && allTypeOnly(bindings.elements)));
      add(node.moduleSpecifier, typeOnly, node);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && allTypeOnly(node.exportClause.elements));
      add(node.moduleSpecifier, typeOnly, node);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node.moduleReference.expression, node.isTypeOnly, node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal, true, node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0], false, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a specifier names, when it is one of the project's own sources (not a package, not a declaration file). */
function resolveFrom(fileName, specifier, project) {
  const resolved = ts.resolveModuleName(specifier, fileName, project.options, ts.sys, project.cache).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport || resolved.resolvedFileName.endsWith(".d.ts") || resolved.resolvedFileName.includes(`${path.sep}node_modules${path.sep}`)) {
    return undefined;
  }
  return path.resolve(resolved.resolvedFileName);
}

/** @type {Map<string, { modified: number; edges: Edge[] }>} */
const onDisk = new Map();

/** A file's edges as it is on disk now (parsed again only when it changed); none for a file that is gone. */
function edgesOnDisk(fileName, project) {
  let modified;
  try {
    modified = fs.statSync(fileName).mtimeMs;
  } catch {
    onDisk.delete(fileName);
    return [];
  }
  const known = onDisk.get(fileName);
  if (known && known.modified === modified) return known.edges;
  const edges = edgesOf(fileName, fs.readFileSync(fileName, "utf8"), project);
  onDisk.set(fileName, { modified, edges });
  return edges;
}

/** @returns {Edge[]} */
function edgesOf(fileName, text, project) {
  const edges = [];
  for (const found of importsOf(fileName, text)) {
    const target = resolveFrom(fileName, found.specifier, project);
    if (target) edges.push({ ...found, target });
  }
  return edges;
}

/**
 * Whether `from` leads back to `home`, by value imports only when `valuesOnly`; the route when it
 * does (the specifiers followed, each with its file). `deadEnds` holds files known not to lead back
 * (in this mode), shared by the imports of one file.
 */
function routeBack(from, home, valuesOnly, deadEnds, edgesFor) {
  /** @type {Map<string, { parent: string | null; via: string }>} */
  const reached = new Map([[from, { parent: null, via: "" }]]);
  const stack = [from];
  while (stack.length > 0) {
    const file = /** @type {string} */ (stack.pop());
    for (const edge of edgesFor(file)) {
      if (valuesOnly && edge.typeOnly) continue;
      if (edge.target === home) {
        const route = [`${edge.specifier} (${path.basename(file)})`];
        for (let at = file; reached.get(at)?.parent != null; at = /** @type {string} */ (reached.get(at)?.parent)) route.unshift(reached.get(at)?.via ?? "");
        return route;
      }
      if (reached.has(edge.target) || deadEnds.has(edge.target)) continue;
      reached.set(edge.target, { parent: file, via: `${edge.specifier} (${path.basename(file)})` });
      stack.push(edge.target);
    }
  }
  for (const file of reached.keys()) deadEnds.add(file);
  return undefined;
}

/** @type {import("eslint").Rule.RuleModule} */
const noTypeCycle = {
  meta: {
    type: "problem",
    docs: { description: "Forbid an import cycle that type-only imports close (import-x/no-cycle does not count them)." },
    schema: [{ type: "object", properties: { tsconfig: { type: "string" } }, required: ["tsconfig"], additionalProperties: false }],
    messages: {
      cycle: "Dependency cycle, type-only imports included: {{route}}. Move the types both sides need into a module that imports neither (lib/runtime/types.ts holds the runtime's).",
    },
  },
  create(context) {
    const home = path.resolve(context.physicalFilename);
    if (!/\.[cm]?tsx?$/.test(home)) return {};
    const project = projectOf(context.options[0].tsconfig);
    return {
      "Program:exit"() {
        // This file as the linter sees it (perhaps not yet saved); every other file as it is on disk.
        const own = edgesOf(home, context.sourceCode.text, project);
        const edgesFor = (file) => (file === home ? own : edgesOnDisk(file, project));
        const anyDeadEnds = new Set();
        const valueDeadEnds = new Set();
        for (const edge of own) {
          if (edge.target === home) continue;
          const route = routeBack(edge.target, home, false, anyDeadEnds, edgesFor);
          if (!route) continue;
          // A cycle of value imports alone is import-x/no-cycle's to report.
          if (!edge.typeOnly && routeBack(edge.target, home, true, valueDeadEnds, edgesFor)) continue;
          context.report({
            loc: { start: context.sourceCode.getLocFromIndex(edge.start), end: context.sourceCode.getLocFromIndex(edge.end) },
            messageId: "cycle",
            data: { route: [`${edge.specifier} (${path.basename(home)})`, ...route].join(" → ") },
          });
        }
      },
    };
  },
};

/** The repository's own lint rules, as an ESLint plugin. */
const parley = { meta: { name: "parley" }, rules: { "no-type-cycle": noTypeCycle } };

export default parley;
