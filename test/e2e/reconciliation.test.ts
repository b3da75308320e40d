// Reconciliation with Chapa as a new admin lives it (issue 27), with JavaScript off for the forms: a
// consultation paid by a new patient is charged back by the patient's bank in the payment sandbox; the
// finance page's banner turns red; its link leads to the reconciliation page, where the difference is
// shown with what each side says and resolved with a note (an empty note is refused with the message
// beside it); a run then finds nothing and the banner is green again. In English and in Amharic.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../support/demo-data";
import { acceptDirectly, consultationIdIn, payDirectly } from "./arrange";
import { baseUrl, endJourneys, hydrated, sendRequestDirectly, signInDirectly, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === "admin")!;
const ABEBE = DEMO_ACCOUNTS.find((account) => account.email === "dr.abebe@qoda.test")!;

/**
 * A new patient's consultation accepted by Dr. Abebe and paid in the sandbox, through the app's forms
 * (walked through the pages in payments.test.ts); its payment's tx_ref.
 */
async function paidConsultation(doctor: Page, patient: Page, patientFirstName: string) {
  await signInDirectly(doctor, ABEBE.email, DEMO_PASSWORD);
  await doctor.waitForURL(/\/doctor\/dashboard$/);
  await signUpNewPatient(patient, patientFirstName);
  const id = consultationIdIn(await sendRequestDirectly(patient, `Dry, cracked skin on my hands ${Date.now()}`));
  await acceptDirectly(doctor, id);
  return payDirectly(patient, id);
}

/** The words of one language for this journey. */
interface Words {
  lng: "en" | "am";
  chargeBack: string;
  takenBack: string;
  toReconciliation: string;
  title: string;
  takenBackKind: string;
  note: string;
  resolve: string;
  noteRequired: string;
  resolved: string;
  runNow: string;
  ranNone: string;
  agree: string;
  open: RegExp;
}

const ENGLISH: Words = {
  lng: "en",
  chargeBack: "Charge back (the patient's bank)",
  takenBack: "The payment was taken back, and its webhook sent.",
  toReconciliation: "See the reconciliation",
  title: "Reconciliation with Chapa",
  takenBackKind: "Taken back by the bank or Chapa",
  note: "What you found and did (kept with the difference)",
  resolve: "Mark resolved",
  noteRequired: "Say what you found and did.",
  resolved: "The difference is marked resolved.",
  runNow: "Reconcile now",
  ranNone: "Reconciled: 0 differences found.",
  agree: "Our books agree with Chapa's. Last compared:",
  open: /^\d+ differences? with Chapa (is|are) open\./,
};

const AMHARIC: Words = {
  lng: "am",
  chargeBack: "በታካሚው ባንክ ይመለስ",
  takenBack: "ክፍያው ተመልሷል፤ ዌብሁኩም ተልኳል።",
  toReconciliation: "ማስታረቁን ይመልከቱ",
  title: "ከቻፓ ጋር ማስታረቅ",
  takenBackKind: "በባንኩ ወይም በቻፓ ተመልሷል",
  note: "ያገኙትና ያደረጉት (ከልዩነቱ ጋር ይቀመጣል)",
  resolve: "እንደተፈታ ምልክት ያድርጉ",
  noteRequired: "ያገኙትንና ያደረጉትን ይጻፉ።",
  resolved: "ልዩነቱ እንደተፈታ ተመዝግቧል።",
  runNow: "አሁን አስታርቅ",
  // Amharic counts zero as one.
  ranNone: "ማስታረቁ ተከናውኗል፦ 0 ልዩነት ተገኝቷል።",
  agree: "መዝገባችን ከቻፓ መዝገብ ጋር ይስማማል። ለመጨረሻ ጊዜ የተነጻጸረው፦",
  open: /^ከቻፓ ጋር \d+ (ያልተፈታ ልዩነት አለ|ያልተፈቱ ልዩነቶች አሉ)።/,
};

const isRed = async (banner: ReturnType<Page["getByTestId"]>) => ((await banner.getAttribute("class")) ?? "").includes("alert-error");

/**
 * The admin's part, in `words`' language with JavaScript off: the chargeback in the sandbox, the red
 * banner, the difference resolved with a note, and a run that finds nothing.
 */
async function chargedBackAndResolved(admin: Page, auditor: Page, txRef: string, words: Words) {
  await admin.goto(`${baseUrl}/dev/payments?lng=${words.lng}`);
  const transaction = admin.getByTestId("sandbox-transaction").filter({ hasText: txRef });
  await transaction.getByRole("button", { name: words.chargeBack }).click();
  await admin.getByText(words.takenBack).waitFor();

  await admin.goto(`${baseUrl}/admin/finance`);
  const banner = admin.getByTestId("reconciliation-check");
  expect(await banner.getAttribute("role")).toBe("alert");
  expect(await isRed(banner)).toBe(true);
  expect(await banner.textContent()).toMatch(words.open);
  await auditedAt(auditor, `/admin/finance?lng=${words.lng}`);
  await banner.getByRole("link", { name: words.toReconciliation }).click();
  await admin.waitForURL(/\/admin\/finance\/reconciliation$/);
  expect(await admin.getByRole("heading", { level: 1 }).textContent()).toBe(words.title);

  const difference = admin.locator(`[data-testid="difference"][data-reference="${txRef}"]`);
  expect(await difference.textContent()).toContain(words.takenBackKind);
  expect(await difference.textContent()).toContain(txRef);
  await auditedAt(auditor, "/admin/finance/reconciliation");

  // Without a note: refused, the message beside the field (and so with JavaScript on, audited there).
  await difference.getByRole("button", { name: words.resolve }).click();
  const note = admin.locator(`[data-testid="difference"][data-reference="${txRef}"]`).getByLabel(words.note);
  await admin.getByText(words.noteRequired).waitFor();
  expect(await note.getAttribute("aria-invalid")).toBe("true");
  const auditedDifference = auditor.locator(`[data-testid="difference"][data-reference="${txRef}"]`);
  await hydrated(auditedDifference.getByRole("button", { name: words.resolve }));
  await auditedDifference.getByRole("button", { name: words.resolve }).click();
  await auditor.getByText(words.noteRequired).waitFor();
  expect(await auditedDifference.getByLabel(words.note).getAttribute("aria-invalid")).toBe("true");
  await expectAccessible(auditor);

  await note.fill(`Charged back by the patient's bank (${words.lng}); Chapa confirmed. Nothing to recover.`);
  await admin.locator(`[data-testid="difference"][data-reference="${txRef}"]`).getByRole("button", { name: words.resolve }).click();
  await admin.getByText(words.resolved).waitFor();
  expect(await admin.locator(`[data-testid="difference"][data-reference="${txRef}"] form`).count()).toBe(0);

  // Whatever else was open before this admin came (other journeys' differences) is looked at too.
  for (let left = await openForms(admin); left > 0; left = await openForms(admin)) {
    const other = admin.locator('[data-testid="difference"]:has(form)').first();
    await other.getByLabel(words.note).fill("Looked at during the reconciliation journey.");
    await other.getByRole("button", { name: words.resolve }).click();
    await admin.getByText(words.resolved).waitFor();
  }

  await admin.getByRole("button", { name: words.runNow }).click();
  await admin.getByText(words.ranNone).waitFor();
  const state = admin.getByTestId("reconciliation-state");
  expect(await state.textContent()).toContain(words.agree);
  await auditedAt(auditor, "/admin/finance/reconciliation");

  await admin.goto(`${baseUrl}/admin/finance`);
  expect(await isRed(banner)).toBe(false);
  expect(await banner.getAttribute("class")).toContain("alert-success");
  expect(await banner.textContent()).toContain(words.agree);
  await auditedAt(auditor, "/admin/finance");
}

/**
 * axe needs the page's own scripts (its checks run on timers): the states the admin reaches without
 * JavaScript are audited as a second admin, with it, sees them.
 */
async function auditedAt(auditor: Page, pathname: string) {
  await auditor.goto(`${baseUrl}${pathname}`);
  await expectAccessible(auditor);
}

const openForms = (page: Page) => page.locator('[data-testid="difference"]:has(form)').count();

describe("reconciliation with Chapa, as a new admin", () => {
  for (const words of [ENGLISH, AMHARIC])
    it(`${words.lng === "en" ? "in English" : "in Amharic"}: a chargeback turns the banner red; resolved with a note, a run turns it green`, async () => {
      const doctor = await startJourney();
      const patient = await startJourney();
      const txRef = await paidConsultation(doctor.page, patient.page, words.lng === "en" ? "Liya" : "Saba");

      const admin = await startJourney({ javaScriptEnabled: false });
      const auditor = await startJourney();
      for (const { page } of [admin, auditor]) {
        await signInDirectly(page, ADMIN.email, DEMO_PASSWORD);
        await page.waitForURL(/\/admin\/dashboard$/);
      }
      await chargedBackAndResolved(admin.page, auditor.page, txRef, words);
      expect(await admin.page.getAttribute("html", "lang")).toBe(words.lng);
      expect(admin.problems).toEqual([]);
      expect(auditor.problems).toEqual([]);
      expect(doctor.problems).toEqual([]);
      expect(patient.problems).toEqual([]);
    });
});
