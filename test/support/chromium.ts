import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
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
 * The slow phone's pages get a Chromium of their own, on a quarter of a core (slowPhoneBrowser).
 */
let shared: Promise<Browser> | undefined;
let slowPhone: Promise<SlowPhoneBrowser> | undefined;

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

const apiCallLogger = {
  // Deprecated for being incomplete, but it names every API call as it starts and ends, which is
  // all a stalled journey's report needs (a trace per journey would cost every journey its writing).
  isEnabled: (name: string) => name === "api",
  log: (_name: string, _severity: string, message: string | Error) => keepCall(String(message)),
};

function launched(browser: Promise<Browser>, name: string) {
  keepCall(`=> ${name} started`);
  void browser.then(
    () => keepCall(`<= ${name} succeeded`),
    () => keepCall(`<= ${name} failed`),
  );
  return browser;
}

function sharedBrowser() {
  shared ??= launched(
    chromium.launch({ executablePath: TEST_CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS, logger: apiCallLogger }),
    "chromium.launch",
  );
  return shared;
}

/**
 * How much slower the slow phone is than this machine: its pages' renderers get a quarter of one core,
 * as Lighthouse's phone is modelled with Chrome's CPU throttling at 4×.
 */
export const SLOW_PHONE_CPU_SLOWDOWN = 4;
/** The slice of time the slow phone's share is counted over: short, so it runs often and briefly. */
const SLOW_PHONE_PERIOD_US = 20_000;

interface SlowPhoneBrowser {
  browser: Browser;
  /** Whether the system holds its renderers to their share; if not, its pages are to be throttled by Chrome. */
  heldByTheSystem: boolean;
  close(): Promise<void>;
}

/**
 * A CPU cgroup of its own capped at `1 / slowdown` of a core, or undefined when this machine does not let
 * us make one (cgroup v1's cpu controller, or v2's with cpu enabled for our group's children).
 */
function cpuCappedGroup(slowdown: number): string | undefined {
  const name = `qoda-slow-phone-${process.pid}-${Date.now().toString(36)}`;
  const quotaUs = Math.round(SLOW_PHONE_PERIOD_US / slowdown);
  let made: string | undefined;
  try {
    if (existsSync("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")) {
      const group = (made = `/sys/fs/cgroup/cpu/${name}`);
      mkdirSync(group);
      writeFileSync(`${group}/cpu.cfs_period_us`, String(SLOW_PHONE_PERIOD_US));
      writeFileSync(`${group}/cpu.cfs_quota_us`, String(quotaUs));
      return group;
    }
    // v2: under our own group, so what the phone uses is still counted where we are (npm test's layer figures).
    const own = /^0::(.*)$/m.exec(readFileSync("/proc/self/cgroup", "utf8"))?.[1];
    if (own === undefined) return undefined;
    const parent = `/sys/fs/cgroup${own === "/" ? "" : own}`;
    if (!readFileSync(`${parent}/cgroup.subtree_control`, "utf8").includes("cpu")) return undefined;
    const group = (made = `${parent}/${name}`);
    mkdirSync(group);
    writeFileSync(`${group}/cpu.max`, `${quotaUs} ${SLOW_PHONE_PERIOD_US}`);
    return group;
  } catch {
    // A group made but not capped is not left behind.
    if (made && existsSync(made)) rmdirSync(made);
    return undefined;
  }
}

/**
 * The slow phone's Chromium, whose pages run on a quarter of one core: each renderer is started through a
 * wrapper (Chromium's --renderer-cmd-prefix) that joins the capped group and becomes the renderer. Chrome's
 * own CPU throttling (DevTools' `Emulation.setCPUThrottlingRate`) slows a page by spinning its main thread
 * in a signal handler: on Linux a throttled page used 0.9 of a core while it did nothing at all, so each
 * slow phone took a core of this two-core machine from everything else (docs/decisions/0051). Where no
 * group can be made, the pages are throttled by Chrome, as before.
 */
function slowPhoneBrowser(): Promise<SlowPhoneBrowser> {
  slowPhone ??= (async () => {
    const group = cpuCappedGroup(SLOW_PHONE_CPU_SLOWDOWN);
    if (!group) {
      const browser = await sharedBrowser();
      return { browser, heldByTheSystem: false, close: async () => undefined };
    }
    const wrapper = join(mkdtempSync(join(tmpdir(), "qoda-slow-phone-")), "renderer");
    writeFileSync(wrapper, `#!/bin/sh\necho $$ > '${group}/cgroup.procs' || exit 1\nexec "$@"\n`);
    chmodSync(wrapper, 0o755);
    const browser = await launched(
      chromium.launch({
        executablePath: TEST_CHROMIUM_PATH,
        headless: true,
        args: [...LAUNCH_ARGS, `--renderer-cmd-prefix=${wrapper}`],
        logger: apiCallLogger,
      }),
      "slow phone's chromium.launch",
    );
    return {
      browser,
      heldByTheSystem: true,
      close: async () => {
        await browser.close();
        // Empty once its processes are gone; a group left behind by a crash is empty too, and harmless.
        try {
          rmdirSync(group);
        } catch {
          // A process not yet reaped: the directory goes with the next boot.
        }
      },
    };
  })();
  return slowPhone;
}

/** Closes this file's Chromiums, if any were started (run it in afterAll). */
export async function closeSharedBrowser() {
  const [browser, phone] = await Promise.all([shared, slowPhone]);
  shared = slowPhone = undefined;
  await phone?.close();
  await browser?.close();
}

/**
 * A fresh browser context (its own cookies, storage and cache) at phone width; closed by the caller.
 * Each gets its own client address (wrangler dev passes the header through; in production Cloudflare
 * sets it), so rate limits in one journey do not spill into the next.
 */
let contextsOpened = 0;

export async function openBrowser(
  options: { javaScriptEnabled?: boolean; width?: number; serviceWorkers?: "allow" | "block"; slowPhone?: boolean } = {},
): Promise<{ context: BrowserContext; throttledByChrome: boolean }> {
  contextsOpened += 1;
  const phone = options.slowPhone ? await slowPhoneBrowser() : undefined;
  const context = await (phone?.browser ?? (await sharedBrowser())).newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    serviceWorkers: options.serviceWorkers ?? "allow",
    viewport: { width: options.width ?? 360, height: 780 },
    locale: "en-US",
    extraHTTPHeaders: { "CF-Connecting-IP": `203.0.113.${contextsOpened % 250}-${process.pid}` },
  });
  return { context, throttledByChrome: phone !== undefined && !phone.heldByTheSystem };
}
