import { describe, expect, it } from "vitest";

import { labelColon, labelled } from "~/domain/label-colon";

describe("a label joined to its value", () => {
  it("takes ፦ after an Amharic label, even inside a closing bracket, and : after any other", () => {
    expect(labelled("ዕድሜ (በዓመት)", 34)).toBe("ዕድሜ (በዓመት)፦ 34");
    expect(labelled("የሰውነት ቦታዎች", "ፊት፣ አንገት")).toBe("የሰውነት ቦታዎች፦ ፊት፣ አንገት");
    expect(labelled("Age (years)", 34)).toBe("Age (years): 34");
    // A brand as the label (Telegram) keeps the Latin colon, whatever the page's language.
    expect(labelColon("Telegram")).toBe(":");
  });
});
