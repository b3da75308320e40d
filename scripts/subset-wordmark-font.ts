// `npm run fonts:wordmark`: cuts, from Noto Sans Ethiopic, a font with only the Ethiopic letters that
// English pages show (the logo's ቆዳ and the language switcher's አማርኛ), so those pages need no 75 KB
// Ethiopic font file. Run it again when those words change; the output is committed.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import subsetFont from "subset-font";

import { LANGUAGE_NATIVE_NAMES } from "../app/domain/languages.ts";
import { PROJECT_ROOT } from "../test/support/local-stack.ts";

const WORDMARK_TEXT = `ቆዳ${LANGUAGE_NATIVE_NAMES.am}`;
const source = join(PROJECT_ROOT, "node_modules", "@fontsource", "noto-sans-ethiopic", "files");

for (const weight of [400, 700]) {
  const font = readFileSync(join(source, `noto-sans-ethiopic-ethiopic-${weight}-normal.woff2`));
  const subset = await subsetFont(font, WORDMARK_TEXT, { targetFormat: "woff2" });
  const target = join(PROJECT_ROOT, "app", "assets", "fonts", `qoda-wordmark-${weight}.woff2`);
  writeFileSync(target, subset);
  console.log(`${target}: ${subset.length} bytes (from ${font.length})`);
}
