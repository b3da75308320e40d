import { describe, expect, it } from "vitest";

import { importCircles, importGraph, projectImportGraph } from "../support/import-graph";

const root = new URL("../..", import.meta.url).pathname;

/** A small project in memory: file name → source. */
function graphOf(files: Record<string, string>) {
  return importGraph(
    Object.keys(files),
    (file) => files[file]!,
    (file) => file in files,
  );
}

describe("import circles", () => {
  it("are found through value imports, type-only imports, re-exports and the ~/ alias", () => {
    const graph = graphOf({
      "app/server/a.server.ts": 'import type { B } from "./b.server";\nexport type A = B;',
      "app/server/b.server.ts": 'export { c } from "~/domain/c";\nexport type B = string;',
      "app/domain/c.ts": 'import { type A } from "../server/a.server";\nexport const c = 1;',
      "party/room.ts": 'import { c } from "~/domain/c";\nimport { z } from "zod";',
    });
    expect(importCircles(graph)).toEqual([["app/domain/c.ts", "app/server/a.server.ts", "app/server/b.server.ts"]]);
  });

  it("are not found where imports point one way", () => {
    const graph = graphOf({
      "party/room.ts": 'import { b } from "../app/server/b.server";\nimport { c } from "~/domain/c";',
      "app/server/b.server.ts": 'import { c } from "~/domain/c";\nexport const b = c;',
      "app/domain/c.ts": "export const c = 1;",
    });
    expect(graph.get("party/room.ts")).toEqual(["app/server/b.server.ts", "app/domain/c.ts"]);
    expect(importCircles(graph)).toEqual([]);
  });

  it("do not exist in the project (app, party, the Worker entry, scripts)", () => {
    const graph = projectImportGraph(root, ["app", "party", "server.ts", "scripts"]);
    expect(graph.size).toBeGreaterThan(200);
    expect(importCircles(graph)).toEqual([]);
  });
});
