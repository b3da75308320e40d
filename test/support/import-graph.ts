// The project's import graph as the source says it (every `import`, `import type`, `export … from`
// and `import()`), and its circles. Read with TypeScript's own pre-processor, so type-only imports
// count: a circle through types still ties two modules into one.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

import ts from "typescript";

const SOURCE = /\.tsx?$/;
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

export type ImportGraph = Map<string, string[]>;

/** Every .ts/.tsx file below `paths` (files or folders), relative to `root`. */
function sourceFiles(root: string, paths: string[]): string[] {
  const walk = (path: string): string[] =>
    statSync(path).isFile()
      ? SOURCE.test(path) && !path.endsWith(".d.ts")
        ? [path]
        : []
      : readdirSync(path).flatMap((entry) => (entry === "node_modules" ? [] : walk(join(path, entry))));
  return paths.flatMap((path) => walk(join(root, path))).map((path) => relative(root, path));
}

/** The project files each file imports: "~/" is app/, relative specifiers resolve; packages are left out. */
export function importGraph(files: string[], read: (file: string) => string, exists: (file: string) => boolean): ImportGraph {
  const resolve = (from: string, specifier: string): string | null => {
    const base = specifier.startsWith("~/")
      ? join("app", specifier.slice(2))
      : specifier.startsWith(".")
        ? join(dirname(from), specifier)
        : null;
    if (base === null) return null;
    return EXTENSIONS.map((extension) => base + extension).find((candidate) => SOURCE.test(candidate) && exists(candidate)) ?? null;
  };
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(read(file), true, true);
      const targets = importedFiles.map(({ fileName }) => resolve(file, fileName)).filter((target) => target !== null);
      return [file, [...new Set(targets)]];
    }),
  );
}

export function projectImportGraph(root: string, paths: string[]): ImportGraph {
  return importGraph(
    sourceFiles(root, paths),
    (file) => readFileSync(join(root, file), "utf8"),
    (file) => existsSync(join(root, file)) && statSync(join(root, file)).isFile(),
  );
}

/** The graph's circles: each strongly connected group of two or more files, or a file importing itself (Tarjan). */
export function importCircles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];

  const visit = (file: string) => {
    index.set(file, counter);
    lowLink.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
