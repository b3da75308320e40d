import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Installs Debian's chromium when it is missing and we are root; otherwise fails and says how. Never skips. */
export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Browser tests need Debian's chromium at ${CHROMIUM_PATH}. Install it with: sudo apt-get install -y chromium fonts-noto-core`,
    );
  }
  console.log("Installing chromium with apt-get for the browser tests…");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium", "fonts-noto-core"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get ran but ${CHROMIUM_PATH} is still missing`);
}

/** A fresh browser profile at phone width; closed by the caller. */
/**
 * Each browser gets its own client address (wrangler dev passes the header through; in production
 * Cloudflare sets it), so rate limits in one journey do not spill into the next.
 */
let browsersOpened = 0;

export async function openBrowser(options: { javaScriptEnabled?: boolean; width?: number } = {}): Promise<BrowserContext> {
  browsersOpened += 1;
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "qoda-chromium-")), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width ?? 360, height: 780 },
    locale: "en-US",
    extraHTTPHeaders: { "CF-Connecting-IP": `203.0.113.${browsersOpened % 250}-${process.pid}` },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
