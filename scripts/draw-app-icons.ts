// `npm run icons`: draws the installed app's icons (public/icons/*.png, named in the web app manifest)
// from the favicon, in Chromium: the favicon as it is at 192 and 512 pixels, and a maskable 512 whose
// brand colour fills the square and whose letter sits inside the safe circle (80 % of the side) that
// every phone's mask keeps. Run it again when public/favicon.svg changes; the output is committed.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { chromium } from "playwright-core";

import { CHROMIUM_PATH, ensureChromium, LAUNCH_ARGS } from "../test/support/chromium.ts";
import { PROJECT_ROOT } from "../test/support/local-stack.ts";

const PUBLIC = join(PROJECT_ROOT, "public");
const favicon = readFileSync(join(PUBLIC, "favicon.svg"), "utf8");
/** The favicon's background colour (the brand's, as the manifest's theme_color). */
const brandColour = /<rect [^>]*fill="([^"]+)"/.exec(favicon)![1];
/** The favicon's letter, scaled into the safe circle (its 64-unit square shrunk to 80 %), on a full bleed. */
const maskable = favicon
  .replace(/<rect [^>]*\/>/, `<rect width="64" height="64" fill="${brandColour}"/>`)
  .replace(/<text /, '<text transform="translate(6.4 6.4) scale(0.8)" ');

const ICONS = [
  { file: "qoda-192.png", size: 192, svg: favicon },
  { file: "qoda-512.png", size: 512, svg: favicon },
  { file: "qoda-maskable-512.png", size: 512, svg: maskable },
];

ensureChromium();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const svg = icon.svg.replace("<svg ", `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${svg}`);
    const target = join(PUBLIC, "icons", icon.file);
    await page.screenshot({ path: target, omitBackground: true });
    console.log(`${target}: ${readFileSync(target).length} bytes`);
    await page.close();
  }
} finally {
  await browser.close();
}
