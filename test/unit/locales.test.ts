import { describe, expect, it } from "vitest";

import { resources } from "~/i18n.server";

const en = resources.en.common;
const am = resources.am.common;

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") found.set(path, value);
    else for (const [childPath, text] of leaves(value, path)) found.set(childPath, text);
  }
  return found;
}

const english = leaves(en as Tree);
const amharic = leaves(am as Tree);
const ETHIOPIC = /[\u1200-\u137F]/;
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe("translations", () => {
  it("have the same keys in English and Amharic", () => {
    expect([...english.keys()].filter((key) => !amharic.has(key))).toEqual([]);
    expect([...amharic.keys()].filter((key) => !english.has(key))).toEqual([]);
  });

  it("leave no text empty", () => {
    for (const [key, text] of [...english, ...amharic]) expect(text.trim(), key).not.toBe("");
  });

  it("write Amharic in Ethiopic script", () => {
    // A brand name stands as it is (the glossary): it is the one text allowed without Ethiopic letters.
    const BRANDS = new Set(["Telegram", "Chapa", "Google"]);
    const notEthiopic = [...amharic].filter(([, text]) => !BRANDS.has(text) && !ETHIOPIC.test(text.replace(/\{\{\w+\}\}/g, "")));
    expect(notEthiopic.map(([key]) => key)).toEqual([]);
  });

  it("use the same placeholders in both languages", () => {
    for (const [key, text] of english) expect(placeholders(amharic.get(key) ?? ""), key).toEqual(placeholders(text));
  });

  it("give every plural both forms (_one and _other), in both languages", () => {
    for (const texts of [english, amharic]) {
      const bases = new Set([...texts.keys()].filter((key) => /_(one|other)$/.test(key)).map((key) => key.replace(/_(one|other)$/, "")));
      expect(bases.size).toBeGreaterThan(10);
      for (const base of bases) expect(texts.has(`${base}_one`) && texts.has(`${base}_other`), base).toBe(true);
      // A plural base never also stands alone as a key (i18next would use it for every count).
      expect([...bases].filter((base) => texts.has(base))).toEqual([]);
    }
  });

  it("mark a sentence's link the same way in both languages (one <0>…</0>)", () => {
    const links = (text: string) => (text.match(/<0>[^<]+<\/0>/g) ?? []).length;
    const marked = [...english].filter(([, text]) => text.includes("<0>"));
    expect(marked.length).toBeGreaterThan(0);
    for (const [key, text] of marked) {
      expect(links(text), key).toBe(1);
      expect(links(amharic.get(key) ?? ""), key).toBe(1);
    }
  });

  it("write an ellipsis as one character (…), never three dots", () => {
    expect([...english, ...amharic].filter(([, text]) => text.includes("...")).map(([key]) => key)).toEqual([]);
  });
});

describe("translation keys in the code", () => {
  it("all exist, including those passed around as strings (form errors, toasts)", async () => {
    const { readdirSync, readFileSync, statSync } = await import("node:fs");
    const { join } = await import("node:path");
    const root = new URL("../../app", import.meta.url).pathname;
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(name)) files.push(full);
      }
    };
    walk(root);
    const namespaces = [...new Set([...english.keys()].map((key) => key.split(".")[0]))].join("|");
    const keyPattern = new RegExp(`["'\`]((?:${namespaces})\\.[A-Za-z0-9_.]+)["'\`]`, "g");
    const missing = new Set<string>();
    let found = 0;
    for (const file of files) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        // Audit actions (`auth.sign_in.success`, `consultation.viewed`) look like keys but are not.
        if (/\baction\b|[Aa]udit|^\s*(\||\/\/|\/?\*)|SELECT/.test(line) || file.endsWith("audit.server.ts")) continue;
        for (const match of line.matchAll(keyPattern)) {
          const key = match[1]!;
          if (key.endsWith(".")) continue; // a prefix completed at run time
          if (key.includes("_")) continue; // snake_case names are audit actions, keys are camelCase
          if ([...english.keys()].some((known) => known.startsWith(`${key}.`) || known === `${key}_one`)) continue; // a prefix, or a plural
          found += 1;
          if (!english.has(key)) missing.add(`${key} (${file.slice(root.length + 1)})`);
        }
      }
    }
    expect(found).toBeGreaterThan(50);
    expect([...missing]).toEqual([]);
  });
});
