// An admin's records at phone width: the overview's figures and charts, the late demo payment marked
// refunded after a confirmation, a consultation opened with a reason from the payments list, and that
// opening found in the audit log. Then the reason form without JavaScript, and the pages in Amharic.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_ACCOUNTS, DEMO_CONSULTATIONS, DEMO_PASSWORD, demoConsultationIn } from "../support/demo-data";
import { baseUrl, endJourneys, path, signInDirectly, startJourney } from "./journey";

afterEach(endJourneys);

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === "admin")!;
const completed = demoConsultationIn("completed", (consultation) => consultation.summary !== undefined);
const cancelled = demoConsultationIn("cancelled");
const LATE_TX_REF = `demo-late-${cancelled.id.slice(-4)}`;

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function signInAsAdmin(page: Page) {
  await signInDirectly(page, ADMIN.email, DEMO_PASSWORD);
  await page.waitForURL(/\/admin\/dashboard$/);
}

describe("an admin's records", () => {
  it("reads the overview, marks the late payment refunded, opens a consultation with a reason and finds it in the audit log", async () => {
    const { page, problems } = await startJourney();
    await signInAsAdmin(page);

    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Overview" }).click();
    await page.waitForURL(/\/admin\/overview$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Platform overview");
    expect(Number(await page.getByTestId("figure-total").textContent())).toBeGreaterThanOrEqual(DEMO_CONSULTATIONS.length);
    expect(Number(await page.getByTestId("figure-awaiting-refund").textContent())).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId("figure-rating").textContent()).toMatch(/^\d\.\d$/);
    expect(await page.getByTestId("bar-list").isVisible()).toBe(true);
    const chart = page.getByRole("img", { name: /new consultations in the last 30 days/ });
    expect(await chart.isVisible()).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);

    await page.goto(`${baseUrl}/admin/payments`);
    const rows = page.getByTestId("payment-row");
    // Those awaiting a refund come first (the demo's late payment among them), then the rest.
    const awaiting = await rows.evaluateAll((items) => items.map((item) => item.hasAttribute("data-awaiting-refund")));
    expect(awaiting[0]).toBe(true);
    expect(awaiting.indexOf(false) === -1 || awaiting.slice(awaiting.indexOf(false)).every((flag) => !flag)).toBe(true);
    const late = page.locator(`[data-testid="payment-row"][data-tx-ref="${LATE_TX_REF}"]`);
    expect(await late.getAttribute("data-awaiting-refund")).toBe("");
    expect(await late.getByTestId("payment-status").textContent()).toBe("Paid after the window closed");
    // An attempt the provider disagreed about: flagged with why and what the provider said, not offered as a refund.
    const flagged = page.locator('[data-testid="payment-row"][data-tx-ref^="demo-check-"]');
    expect(await flagged.getByTestId("needs-review").textContent()).toBe("Needs review");
    expect(await flagged.getByTestId("review-reason").textContent()).toContain("The provider's record does not match ours");
    expect(await flagged.getByTestId("review-reason").textContent()).toContain("The provider said: success, 15 ETB");
    expect(await flagged.getByText("Record a refund made outside the payment service…").count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);
    await late.getByText("Record a refund made outside the payment service…").click();
    expect(await late.getByText(/confirm once the 150 ETB of payment/).isVisible()).toBe(true);
    await late.getByLabel("How and why it was refunded").fill("Sent back by bank transfer, FT26110001");
    await late.getByRole("button", { name: "Record the refund" }).click();
    await expect.poll(() => late.getByTestId("refunded-badge").count()).toBe(1);
    expect(await late.getAttribute("data-awaiting-refund")).toBeNull();
    expect(await late.getByTestId("refunded-by").textContent()).toBe(`${ADMIN.firstName} ${ADMIN.lastName}`);
    expect(await page.getByText("The payment is recorded as refunded.").isVisible()).toBe(true);

    // From the payments list to a consultation: first the reason, then the record.
    const paid = page.locator(`[data-testid="payment-row"][data-tx-ref="demo-${completed.id.slice(-4)}"]`);
    await paid.getByTestId("payment-consultation").click();
    await page.waitForURL(new RegExp(`/admin/consultations/${completed.id}$`));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Why are you opening this consultation?");
    expect(await page.getByText(completed.summary!.diagnosis).count()).toBe(0);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Open the consultation" }).click();
    await expect.poll(() => page.getByText("Please write why you are opening this consultation.").isVisible()).toBe(true);
    await page.getByLabel("Reason").fill("Patient asked about a refund");
    await page.getByRole("button", { name: "Open the consultation" }).click();
    await expect.poll(() => page.getByTestId("consultation-summary").isVisible()).toBe(true);
    expect(await page.getByTestId("consultation-summary").textContent()).toContain(completed.summary!.diagnosis);
    expect(await page.getByTestId("record-photos").isVisible()).toBe(true);
    expect(await page.getByTestId("opening-note").textContent()).toContain("Patient asked about a refund");
    expect(path(page)).toBe(`/admin/consultations/${completed.id}`);
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);

    // The opening is in the audit log, with its reason.
    await page.goto(`${baseUrl}/admin/audit`);
    await page.getByLabel("Action").selectOption({ label: "Consultation opened by an admin" });
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/action=admin\.consultation_opened/);
    const entry = page.getByTestId("audit-row").first();
    await expect.poll(() => entry.getAttribute("data-action")).toBe("admin.consultation_opened");
    expect(await entry.getByTestId("audit-action").textContent()).toBe("Consultation opened by an admin");
    expect(await entry.getByTestId("audit-actor").textContent()).toContain(ADMIN.email);
    expect(await entry.getByTestId("audit-details").textContent()).toBe("Reason: Patient asked about a refund");
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);

    await page.goto(`${baseUrl}/admin/feedbacks`);
    expect(await page.getByTestId("feedback-row").count()).toBeGreaterThanOrEqual(1);
    await expectAccessible(page);

    expect(await fitsWidth(page)).toBe(true);

    // In Amharic, each page still fits the phone.
    await page.goto(`${baseUrl}/admin/overview?lng=am`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("የመድረኩ አጠቃላይ እይታ");
    expect(await fitsWidth(page)).toBe(true);
    await page.goto(`${baseUrl}/admin/payments`);
    expect(await late.getByTestId("payment-status").textContent()).toBe("ጊዜው ካለፈ በኋላ ተከፍሏል");
    expect(await fitsWidth(page)).toBe(true);
    for (const address of ["/admin/feedbacks", "/admin/audit?action=admin.consultation_opened", `/admin/consultations/${completed.id}`]) {
      await page.goto(`${baseUrl}${address}`);
      expect(await page.getAttribute("html", "lang")).toBe("am");
      expect(await fitsWidth(page), address).toBe(true);
    }
    await page.goto(`${baseUrl}/admin/overview?lng=en`);
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
  });

  it("opens a consultation with a reason without JavaScript", async () => {
    const { page } = await startJourney({ javaScriptEnabled: false });
    await signInAsAdmin(page);
    const other = DEMO_CONSULTATIONS.find((consultation) => consultation.awaitsFeedback)!;
    await page.goto(`${baseUrl}/admin/consultations/${other.id}`);
    await page.getByRole("button", { name: "Open the consultation" }).click();
    expect(await page.getByText("Please write why you are opening this consultation.").isVisible()).toBe(true);
    await page.getByLabel("Reason").fill("Quality review of the summary");
    await page.getByRole("button", { name: "Open the consultation" }).click();
    await page.waitForURL(new RegExp(`/admin/consultations/${other.id}$`));
    expect(await page.getByTestId("consultation-summary").textContent()).toContain(other.summary!.diagnosis);
    // A reload reads the record again; it does not ask twice.
    await page.reload();
    expect(await page.getByTestId("consultation-summary").isVisible()).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
  });
});
