// `npm run fonts:ethiopic`: cuts Noto Sans Ethiopic (regular; bold is drawn from it) into two files, so
// an Amharic first visit stays light (issue 18):
// - the letters Qoda itself writes (every Ethiopic character in app/: locales, dates, the logo), which
//   every Amharic page may need;
// - the rest of the Ethiopic syllabary (U+1200–U+137F), which only a page showing what someone typed
//   (a name, a message) downloads, thanks to each face's unicode-range.
// Both faces try the phone's own Noto Sans Ethiopic first (local()), so a phone that has it downloads
// nothing. Writes the two woff2 files and app/ethiopic-font.css; run it again when texts gain letters
// (test/workers/locales.test.ts fails until then). The output is committed.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

import { format, resolveConfig } from "prettier";
import subsetFont from "subset-font";

import { PROJECT_ROOT } from "../test/support/local-stack.ts";
import { ETHIOPIC_SYLLABARY, ethiopicLettersIn, unicodeRange } from "./ethiopic-letters.ts";

const APP = join(PROJECT_ROOT, "app");
const SOURCE = join(
  PROJECT_ROOT,
  "node_modules",
  "@fontsource",
  "noto-sans-ethiopic",
  "files",
  "noto-sans-ethiopic-ethiopic-400-normal.woff2",
);
const FONTS = join(APP, "assets", "fonts");

/** Every text file under app/ (what the pages can show), as one string. */
function appText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return appText(path);
      return /\.(tsx?|json)$/.test(entry.name) ? readFileSync(path, "utf8") : "";
    })
    .join("");
}

const written = ethiopicLettersIn(appText(APP));
const typedOnly = ETHIOPIC_SYLLABARY.filter((letter) => !written.includes(letter));
const font = readFileSync(SOURCE);

const faces = [
  { file: "noto-sans-ethiopic-qoda-400.woff2", letters: written, about: "the letters Qoda writes" },
  { file: "noto-sans-ethiopic-typed-400.woff2", letters: typedOnly, about: "the rest of the syllabary, for what people type" },
];
const rules: string[] = [];
for (const face of faces) {
  const subset = await subsetFont(font, face.letters.join(""), { targetFormat: "woff2" });
  writeFileSync(join(FONTS, face.file), subset);
  console.log(`${relative(PROJECT_ROOT, join(FONTS, face.file))}: ${face.letters.length} letters, ${subset.length} bytes`);
  rules.push(`/* ${face.about} (${face.letters.length}) */
@font-face {
  font-family: "Noto Sans Ethiopic";
  font-style: normal;
  font-weight: 400;
  font-display: swap;
  src:
    local("Noto Sans Ethiopic Regular"),
    local("NotoSansEthiopic-Regular"),
    local("Noto Sans Ethiopic"),
    url("./assets/fonts/${face.file}") format("woff2");
  unicode-range: ${unicodeRange(face.letters)};
}`);
}
// local() names a font by its full or PostScript name (the static Regular), or, for a variable font
// (newer Android), by the name it carries as a whole.
const stylesheet = `/* Written by \`npm run fonts:ethiopic\` (scripts/subset-ethiopic-font.ts): do not edit by hand. One weight;
   bold Amharic is drawn from it. A phone with Noto Sans Ethiopic of its own downloads neither file. */
${rules.join("\n")}
`;
// Written as prettier would, so `npm run format:check` passes on the committed file.
const target = join(APP, "ethiopic-font.css");
writeFileSync(target, await format(stylesheet, { ...(await resolveConfig(target)), filepath: target }));
