import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { codePointsOf, ETHIOPIC_SYLLABARY, ethiopicLettersIn, unicodeRange } from "../../scripts/ethiopic-letters";

const APP = new URL("../../app/", import.meta.url).pathname;
const css = readFileSync(join(APP, "ethiopic-font.css"), "utf8");
const faces = [...css.matchAll(/@font-face \{([^}]*)\}/g)].map((match) => ({
  src: /src:([^;]*);/.exec(match[1]!)![1]!,
  range: codePointsOf(/unicode-range:([^;]*);/.exec(match[1]!)![1]!),
  display: /font-display: (\w+);/.exec(match[1]!)?.[1],
}));

function appText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) =>
      entry.isDirectory()
        ? appText(join(dir, entry.name))
        : /\.(tsx?|json)$/.test(entry.name)
          ? readFileSync(join(dir, entry.name), "utf8")
          : "",
    )
    .join("");
}

describe("the Ethiopic font (npm run fonts:ethiopic)", () => {
  it("has every Ethiopic letter Qoda writes in its first file, so a page of ours downloads no other", () => {
    const written = ethiopicLettersIn(appText(APP)).map((letter) => letter.codePointAt(0)!);
    const missing = written.filter((codePoint) => !faces[0]!.range.includes(codePoint));
    expect(missing.map((codePoint) => String.fromCodePoint(codePoint)).join(""), "run npm run fonts:ethiopic").toBe("");
  });

  it("covers the whole syllabary a reader can type, each letter in exactly one file", () => {
    const covered = faces.flatMap((face) => face.range).sort((a, b) => a - b);
    expect(covered).toEqual(ETHIOPIC_SYLLABARY.map((letter) => letter.codePointAt(0)));
  });

  // `swap`, not `block`: an Amharic page's text (and its LCP) never waits for a file, and `block` lays the
  // hidden text out in the fallback's boxes, so it would move just as much when a file lands (ADR 0034).
  it("tries the phone's own Noto Sans Ethiopic first and swaps the text in when a file arrives", () => {
    for (const face of faces) {
      expect(face.src.trim()).toMatch(/^local\("Noto Sans Ethiopic Regular"\)/);
      expect(face.display).toBe("swap");
    }
  });
});

describe("unicodeRange", () => {
  it("joins neighbouring letters into ranges and reads back the same letters", () => {
    const letters = ["ሀ", "ሁ", "ሂ", "ለ", "፣"];
    expect(unicodeRange(letters)).toBe("U+1200-1202,U+1208,U+1363");
    expect(codePointsOf(unicodeRange(letters)).map((codePoint) => String.fromCodePoint(codePoint))).toEqual(letters);
  });
});
