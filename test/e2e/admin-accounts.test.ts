// Issue 10 in a browser: an admin adds a doctor with a licence file, the doctor accepts the invite and
// reaches their dashboard, the admin finds and deactivates them (the doctor's open page is told at
// once), and finds a patient by their doctor's name. Each page at 360 px, axe in both languages.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../support/demo-data";
import {
  baseUrl,
  documentRequestsLast,
  endJourneys,
  followEmailedLink,
  revalidated,
  signIn,
  signInDirectly,
  startJourney,
  uniqueEmail,
} from "./journey";

afterEach(endJourneys);

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === "admin")!;
const DOCTOR_PASSWORD = "Derm-Invite-2026";

function licenceOnDisk() {
  const file = join(mkdtempSync(join(tmpdir(), "qoda-licence-")), "licence.pdf");
  writeFileSync(file, "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
  return file;
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function signInAsAdmin(page: Page) {
  await signInDirectly(page, ADMIN.email, DEMO_PASSWORD);
  await page.waitForURL(/\/admin\/dashboard$/);
}

describe("the admin console", () => {
  it("adds a doctor who accepts the invite, then finds and deactivates them; finds a patient by doctor", async () => {
    const admin = await startJourney();
    const doctor = await startJourney();
    const page = admin.page;
    await signInAsAdmin(page);
    await page.waitForLoadState("networkidle");
    for (const testId of ["count-doctors", "count-admins", "count-consultations", "count-patients"]) {
      expect(Number(await page.getByTestId(testId).textContent()), testId).toBeGreaterThan(0);
    }
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);

    const stamp = Date.now().toString(36);
    const lastName = `Haile${stamp}`;
    const email = uniqueEmail("invited-doctor");
    const form = page.locator("form#add-doctor");
    await form.getByLabel("First name").fill("Tigist");
    await form.getByLabel("Last name").fill(lastName);
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Phone").fill("0911223344");
    // Left empty, the specialty is a dermatologist's (the hint says so, in the reader's language).
    expect(await form.getByLabel("Specialty").inputValue()).toBe("");
    await form.getByText("Leave empty for a dermatologist.").waitFor();
    await form.getByLabel("Medical licence number").fill(`ETH-${stamp}`);
    await form.getByLabel("Years of experience").fill("6");
    await form.getByLabel("Licence expiry date").fill("2029-01-31");
    await form.getByLabel("Medical licence file").setInputFiles(licenceOnDisk());
    await form.getByRole("button", { name: "Create doctor account" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("Doctor account created successfully!");
    expect(page.url()).toContain("tab=doctors");
    // The page's data loaded again at once (as a live update does) leaves the message up to be read.
    await revalidated(page);
    expect(await page.getByRole("status").first().textContent()).toContain("Doctor account created successfully!");
    await expect.poll(() => page.getByTestId("registered-users").textContent()).toContain(email);

    // The invite is in the outbox; the doctor sets a password and lands on their dashboard.
    await followEmailedLink(doctor.page, email);
    await doctor.page.waitForURL(/\/invite\?token=/);
    await doctor.page.getByLabel("New password").fill(DOCTOR_PASSWORD);
    await doctor.page.getByLabel("Confirm password").fill(DOCTOR_PASSWORD);
    // The sign-in page is asked for last, as on a slow phone: it still says the password is set.
    await documentRequestsLast(doctor.browser, "/login");
    await doctor.page.getByRole("button", { name: "Set password" }).click();
    await doctor.page.waitForURL(/\/login$/);
    expect(await doctor.page.getByRole("status").textContent()).toContain("Password set");
    await signIn(doctor.page, email, DOCTOR_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await doctor.page.waitForLoadState("networkidle");

    // The admin finds the doctor by search and deactivates them, after a confirmation.
    await page.goto(`${baseUrl}/admin/doctors`);
    await page.getByRole("searchbox").fill(lastName.toLowerCase());
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/q=/);
    const rows = page.getByTestId("doctor-row");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(email);
    expect(await rows.first().getByTestId("doctor-status").textContent()).toBe("Active");
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);
    await rows.first().getByRole("link", { name: "Deactivate" }).click();
    await page.waitForURL(/confirm=deactivate/);
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Yes, deactivate" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("Doctor deactivated");
    await expect.poll(() => page.getByTestId("doctor-status").first().textContent()).toBe("Inactive");

    // The doctor's open dashboard is told at once.
    const notice = doctor.page.getByRole("alert").filter({ hasText: "You have been signed out" });
    await notice.waitFor();

    // A patient found by the name of the doctor they saw.
    await page.goto(`${baseUrl}/admin/patients`);
    await page.getByRole("searchbox").fill("Abebe Kebede");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/q=Abebe/);
    const patients = page.getByTestId("patient-row");
    await expect.poll(() => patients.count()).toBeGreaterThan(0);
    expect(await patients.first().textContent()).toContain("Doctor: Abebe Kebede");
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);

    // The same page in Amharic.
    await page.goto(`${baseUrl}/admin/patients?lng=am`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("ታካሚዎች");
    expect(await page.getByRole("button", { name: "ያጣሩ" }).count()).toBe(1);
    expect(await fitsWidth(page)).toBe(true);
    expect(admin.problems.join("\n")).toBe("");
    expect(doctor.problems.join("\n")).toBe("");
  });

  it("without JavaScript: adds an admin, refuses an address in use keeping the typed values", async () => {
    const journey = await startJourney({ javaScriptEnabled: false });
    const { page } = journey;
    await signInAsAdmin(page);
    const form = page.locator("form#add-admin");
    await form.getByLabel("First name").fill("Kept");
    await form.getByLabel("Last name").fill("Values");
    await form.getByLabel("Email").fill(ADMIN.email);
    await form.getByRole("button", { name: "Create admin account" }).click();
    await page.waitForLoadState("load");
    expect(await page.getByText("This email address is already in use.").first().isVisible()).toBe(true);
    expect(await page.getByText("Failed to create admin account").isVisible()).toBe(true);
    expect(await page.locator("form#add-admin").getByLabel("First name").inputValue()).toBe("Kept");

    const email = uniqueEmail("new-admin");
    await page.locator("form#add-admin").getByLabel("Email").fill(email);
    await page.locator("form#add-admin").getByRole("button", { name: "Create admin account" }).click();
    await page.waitForURL(/tab=admins/);
    expect(await page.getByRole("status").first().textContent()).toContain("Admin account created successfully!");
    expect(await page.getByTestId("registered-users").textContent()).toContain(email);
    expect(await fitsWidth(page)).toBe(true);
  });
});
