// `npm run bench:lcp`: the landing page's Largest Contentful Paint on a first visit, English against
// Amharic (issue 18: Amharic within 10 % of English), in Debian's chromium throttled as Lighthouse's
// mobile run is (slow 4G: 562.5 ms round trips, 1.47 Mbit/s down, 675 kbit/s up; CPU 4× slower; a 412 px
// phone), against its own `wrangler dev` (port 8795 or BENCH_PORT). Amharic is measured twice: on a phone
// without an Ethiopic font (its font files are downloaded) and on one with Noto Sans Ethiopic (most
// Android phones). Each figure is the median of RUNS cold visits. A bench: it prints, it does not judge,
// and exits 1 only when the run could not measure.
import { type Browser, chromium } from "playwright-core";

import { CHROMIUM_PATH, ensureChromium, LAUNCH_ARGS, launchWithoutEthiopicFonts } from "../test/support/chromium.ts";
import { benchPort, startBenchServer } from "../test/support/local-stack.ts";

const PORT = benchPort(8795);
const RUNS = 5;
/** Lighthouse's mobile throttling as DevTools applies it (lighthouse-core/config/constants.js, mobileSlow4G). */
const NETWORK = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

interface Paint {
  lcpMs: number;
  element: string;
  fontFiles: number;
}

/** One cold first visit: a new context (empty cache), throttled, LCP read once the network is quiet. */
async function firstVisit(browser: Browser, url: string, locale: string): Promise<Paint> {
  const context = await browser.newContext({
    locale,
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen = ((window as unknown as { __lcp: { ms: number; element: string } }).__lcp = { ms: 0, element: "" });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>) {
        seen.ms = entry.startTime;
        seen.element = entry.element
          ? `${entry.element.tagName.toLowerCase()} “${(entry.element.textContent ?? "").trim().slice(0, 30)}”`
          : "?";
      }
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  let fontFiles = 0;
  page.on("response", (response) => {
    if (response.request().resourceType() === "font") fontFiles += 1;
  });
  const session = await context.newCDPSession(page);
  await session.send("Network.enable");
  await session.send("Network.setCacheDisabled", { cacheDisabled: true });
  await session.send("Network.emulateNetworkConditions", NETWORK);
  await session.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  await page.goto(url, { waitUntil: "networkidle", timeout: 120_000 });
  // LCP stops at the first input; until then the last entry is the page's LCP.
  const { ms, element } = await page.evaluate(() => (window as unknown as { __lcp: { ms: number; element: string } }).__lcp);
  await context.close();
  return { lcpMs: ms, element, fontFiles };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

ensureChromium();
let server: Awaited<ReturnType<typeof startBenchServer>> | undefined;
let failed = false;
try {
  server = await startBenchServer(PORT);
  const withEthiopicFont = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
  const withoutEthiopicFont = await launchWithoutEthiopicFonts(CHROMIUM_PATH);
  const cases = [
    { label: "English", browser: withEthiopicFont, locale: "en-US" },
    { label: "Amharic, phone without an Ethiopic font", browser: withoutEthiopicFont, locale: "am-ET" },
    { label: "Amharic, phone with Noto Sans Ethiopic", browser: withEthiopicFont, locale: "am-ET" },
  ];
  const results: Array<{ label: string; lcpMs: number; element: string; fontFiles: number }> = [];
  for (const { label, browser, locale } of cases) {
    const paints: Paint[] = [];
    // One warm-up visit (the Worker's first answer compiles it), not counted.
    await firstVisit(browser, `${server.url}/`, locale);
    for (let run = 0; run < RUNS; run += 1) paints.push(await firstVisit(browser, `${server.url}/`, locale));
    const lcpMs = median(paints.map((paint) => paint.lcpMs));
    results.push({ label, lcpMs, element: paints.at(-1)!.element, fontFiles: paints.at(-1)!.fontFiles });
  }
  await withEthiopicFont.close();
  await withoutEthiopicFont.close();

  console.log(`\nLanding page, Largest Contentful Paint on a first visit (median of ${RUNS}; Lighthouse mobile throttling):\n`);
  const english = results[0]!.lcpMs;
  for (const result of results) {
    const ratio = result === results[0] ? "" : `  ${((result.lcpMs / english - 1) * 100).toFixed(0).padStart(4)} % against English`;
    console.log(
      `${result.label.padEnd(42)} ${(result.lcpMs / 1000).toFixed(2)} s${ratio}  (${result.fontFiles} font files; LCP ${result.element})`,
    );
  }
  const worst = Math.max(...results.slice(1).map((result) => result.lcpMs));
  console.log(`\nAmharic at worst ${((worst / english - 1) * 100).toFixed(0)} % slower than English (target: within 10 %).`);
} catch (error) {
  failed = true;
  console.error(`The run stopped: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await server?.stop();
}
process.exit(failed ? 1 : 0);
