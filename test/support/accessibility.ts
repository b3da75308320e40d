// axe-core: a serious or critical violation fails. Journeys check the states they reach where they stand
// (`expectAccessible`); the size-budget run opens every page of the app in English and in Amharic and
// checks each (`auditInBothLanguages`), once per run.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import type { Page } from "playwright-core";

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
  // A dialog fading in is half transparent, and its text fails contrast until it has: audit what
  // people see once the page is still, every finite animation and transition taken to its end at once.
  // Waiting for their ends needed the page to draw frames, and one page that drew none held an audit
  // (and its journey) for a minute.
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if (animation.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY) continue;
      try {
        animation.finish();
      } catch {
        // Paused at a rate of 0: it stays as it is drawn.
      }
    }
  });
  // Evaluated through the debugging protocol, so the page's Content-Security-Policy does not apply.
  // Once per document: compiling its 550 KB took longer than an audit, and a page reached by a client-side
  // navigation still has it.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
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

/**
 * Checks the page as it stands (opened in English), then the same address in Amharic (`?lng=am`), and
 * returns the serious and critical violations of both. The size-budget run calls it on every page of
 * the app, signed in as the page's reader, so each page is audited once per run in both languages.
 */
export async function auditInBothLanguages(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const language of ["en", "am"]) {
    if (language !== "en") {
      const address = new URL(page.url());
      address.searchParams.set("lng", language);
      await page.goto(address.toString(), { waitUntil: "networkidle" });
    }
    const shown = await page.locator("html").getAttribute("lang");
    if (shown !== language) found.push(`${page.url()}: shown in "${shown}", not "${language}", so it was not audited in that language`);
    found.push(...(await seriousViolations(page)));
  }
  return found;
}
