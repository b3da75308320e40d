import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { type Browser, type BrowserContext, chromium } from "playwright-core";

/** Debian's whole Chromium: what the Lighthouse and LCP benches measure with, as a phone's browser draws. */
export const CHROMIUM_PATH = "/usr/bin/chromium";
/**
 * Debian's chromium-headless-shell: the same Blink and V8 (same version) without the desktop browser's
 * compositor and GPU process. The journeys and the size run drive it: it used a third less CPU for the
 * same journeys (docs/decisions/0050), and their CPU is what bounds the suite's time.
 */
export const TEST_CHROMIUM_PATH = "/usr/bin/chromium-headless-shell";
const DEBIAN_PACKAGES = ["chromium", "chromium-headless-shell", "fonts-noto-core"];

/** Installs Debian's chromium and its headless shell when missing and we are root; otherwise fails and says how. Never skips. */
export function ensureChromium() {
  const missing = () => [CHROMIUM_PATH, TEST_CHROMIUM_PATH].filter((path) => !existsSync(path));
  if (missing().length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Browser tests need ${missing().join(" and ")}. Install them with: sudo apt-get install -y ${DEBIAN_PACKAGES.join(" ")}`,
    );
  }
  console.log("Installing chromium with apt-get for the browser tests…");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", ...DEBIAN_PACKAGES], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (missing().length) throw new Error(`apt-get ran but ${missing().join(" and ")} is still missing`);
}

export const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Chromium's environment for a phone without an Ethiopic font of its own: fontconfig hides the system's
 * Ethiopic fonts (fonts-noto-core brings Noto Sans Ethiopic), so the stylesheet's local() finds nothing
 * and the page's own font files are downloaded, as on such a phone.
 */
export function environmentWithoutEthiopicFonts(): Record<string, string> {
  const config = join(mkdtempSync(join(tmpdir(), "qoda-fontconfig-")), "fonts.conf");
  writeFileSync(
    config,
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><glob>*Ethiopic*</glob></rejectfont></selectfont>
</fontconfig>
`,
  );
  return { ...(process.env as Record<string, string>), FONTCONFIG_FILE: config };
}

/**
 * A Chromium of its own on a phone without an Ethiopic font (environmentWithoutEthiopicFonts): the tests'
 * headless shell, or the whole browser for a bench that measures drawing.
 */
export function launchWithoutEthiopicFonts(executablePath = TEST_CHROMIUM_PATH): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS, env: environmentWithoutEthiopicFonts() });
}

/**
 * One Chromium per test file (each file gets its own module state), started on first use: launching
 * one per journey cost seconds each on a loaded machine. Journeys stay apart by their own contexts.
 */
let shared: Promise<Browser> | undefined;

/** How many of Playwright's last calls are kept for a failed journey to print. */
const CALLS_KEPT = 40;
const playwrightCalls: string[] = [];
const clock = () => new Date().toISOString().slice(11, 23);
function keepCall(line: string) {
  playwrightCalls.push(`${clock()} ${line}`);
  if (playwrightCalls.length > CALLS_KEPT) playwrightCalls.shift();
}

/**
 * The last calls this file made to Playwright, each started and ended with its time: a journey that
 * ran past its limit without a step failing by name shows which call it was still in.
 */
export const recentPlaywrightCalls = (count: number) => playwrightCalls.slice(-count);

function sharedBrowser() {
  if (shared) return shared;
  keepCall("=> chromium.launch started");
  shared = chromium.launch({
    executablePath: TEST_CHROMIUM_PATH,
    headless: true,
    args: LAUNCH_ARGS,
    // Deprecated for being incomplete, but it names every API call as it starts and ends, which is
    // all a stalled journey's report needs (a trace per journey would cost every journey its writing).
    logger: { isEnabled: (name) => name === "api", log: (_name, _severity, message) => keepCall(String(message)) },
  });
  void shared.then(
    () => keepCall("<= chromium.launch succeeded"),
    () => keepCall("<= chromium.launch failed"),
  );
  return shared;
}

/** Closes this file's Chromium, if one was started (run it in afterAll). */
export async function closeSharedBrowser() {
  const browser = await shared;
  shared = undefined;
  await browser?.close();
}

/**
 * A fresh browser context (its own cookies, storage and cache) at phone width; closed by the caller.
 * Each gets its own client address (wrangler dev passes the header through; in production Cloudflare
 * sets it), so rate limits in one journey do not spill into the next.
 */
let contextsOpened = 0;

export async function openBrowser(
  options: { javaScriptEnabled?: boolean; width?: number; serviceWorkers?: "allow" | "block" } = {},
): Promise<BrowserContext> {
  contextsOpened += 1;
  return (await sharedBrowser()).newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    serviceWorkers: options.serviceWorkers ?? "allow",
    viewport: { width: options.width ?? 360, height: 780 },
    locale: "en-US",
    extraHTTPHeaders: { "CF-Connecting-IP": `203.0.113.${contextsOpened % 250}-${process.pid}` },
  });
}
