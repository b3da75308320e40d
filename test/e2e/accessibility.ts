// axe-core on every page a journey visits, in both languages: a serious or critical violation fails
// the test. Each page is checked where it stands (`expectAccessible`), and, when the journey ends,
// every address it visited is opened again in English and in Amharic in the same browser (`auditVisited`).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import type { BrowserContext, Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const FAILING_IMPACTS = new Set(["serious", "critical"]);

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** The serious and critical violations on the page as it is now, described for a failure message. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol, so the page's Content-Security-Policy does not apply.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.slice(0, 3).map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
    }));
  });
  return violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ""))
    .map(
      (violation) =>
        `${page.url()}: ${violation.impact} ${violation.id} (${violation.help}) at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(", ")}`,
    );
}

/** Fails if the page as it is now has a serious or critical violation. */
export async function expectAccessible(page: Page) {
  const found = await seriousViolations(page);
  if (found.length) throw new Error(`Accessibility violations:\n${found.join("\n")}`);
}

/** The addresses a page has shown (full loads and in-app navigations alike), in order, without repeats. */
export function recordVisits(page: Page): Set<string> {
  const visited = new Set<string>();
  page.on("framenavigated", (frame) => {
    if (frame !== page.mainFrame()) return;
    const url = new URL(frame.url());
    if (!url.protocol.startsWith("http")) return;
    url.searchParams.delete("lng");
    url.hash = "";
    visited.add(url.toString());
  });
  return visited;
}

/** Opens each address again in a new tab of the same browser, in English and in Amharic, and checks it. */
export async function auditVisited(browser: BrowserContext, visited: Iterable<string>): Promise<string[]> {
  const found: string[] = [];
  const page = await browser.newPage();
  try {
    for (const address of visited) {
      for (const language of ["en", "am"]) {
        const url = new URL(address);
        url.searchParams.set("lng", language);
        const response = await page.goto(url.toString(), { waitUntil: "networkidle" }).catch(() => null);
        if (!response) continue;
        found.push(...(await seriousViolations(page)));
      }
    }
  } finally {
    await page.close();
  }
  return found;
}
