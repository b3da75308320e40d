// The Ethiopic letters of a text, and the CSS unicode-range that names them (for the Ethiopic font's faces).

const FIRST = 0x1200;
const LAST = 0x137f;

/** The Ethiopic syllabary, with its punctuation and numerals (U+1200–U+137F): what an Amharic keyboard types. */
export const ETHIOPIC_SYLLABARY = Array.from({ length: LAST - FIRST + 1 }, (_, index) => String.fromCodePoint(FIRST + index));

/** The distinct Ethiopic letters of `text`, in code point order. */
export function ethiopicLettersIn(text: string): string[] {
  const letters = new Set([...text].filter((letter) => letter.codePointAt(0)! >= FIRST && letter.codePointAt(0)! <= LAST));
  return [...letters].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
}

const hex = (codePoint: number) => codePoint.toString(16).toUpperCase();

/** A CSS unicode-range naming exactly `letters` (runs of neighbours become ranges): "U+1200-1206,U+1208". */
export function unicodeRange(letters: string[]): string {
  const codePoints = [...new Set(letters.map((letter) => letter.codePointAt(0)!))].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const codePoint of codePoints) {
    const last = runs.at(-1);
    if (last && last[1] === codePoint - 1) last[1] = codePoint;
    else runs.push([codePoint, codePoint]);
  }
  return runs.map(([start, end]) => (start === end ? `U+${hex(start)}` : `U+${hex(start)}-${hex(end)}`)).join(",");
}

/** The code points a unicode-range names (the inverse of `unicodeRange`). */
export function codePointsOf(range: string): number[] {
  return range.split(",").flatMap((part) => {
    const [start, end = start] = part.trim().replace(/^U\+/i, "").split("-");
    const first = Number.parseInt(start!, 16);
    return Array.from({ length: Number.parseInt(end!, 16) - first + 1 }, (_, index) => first + index);
  });
}
