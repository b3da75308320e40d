// subset-font ships no types; this is the one call scripts/subset-wordmark-font.ts makes.
declare module "subset-font" {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: "woff2" | "woff" | "truetype" },
  ): Promise<Buffer>;
}
