// Doctors join: an applicant applies with a licence PDF (on a phone), an admin approves, the invite
// arrives in the outbox and the new doctor sets a password and reaches the doctor dashboard; another
// application is rejected through the dialog; and both forms once more without JavaScript.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, licencePdf } from "../support/demo-data";
import {
  baseUrl,
  endJourneys,
  followEmailedLink,
  hydrated,
  path,
  signIn,
  signInDirectly,
  startJourney,
  STEP_TIMEOUT_MS,
  uniqueEmail,
} from "./journey";

afterEach(endJourneys);

const ADMIN_EMAIL = DEMO_ACCOUNTS.find((account) => account.role === "admin")!.email;
const DOCTOR_PASSWORD = "Derm-Clinic-2026";

function licenceOnDisk(name: string, title: string) {
  const file = join(mkdtempSync(join(tmpdir(), "qoda-licence-")), name);
  writeFileSync(file, licencePdf(title));
  return file;
}

async function fillApplication(page: Page, fullName: string, email: string) {
  await page.getByLabel("Full name").fill(fullName);
  await page.getByLabel("Phone number").fill("+251 911 234 567");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("City and country").fill("Adama, Ethiopia");
  await page.getByLabel("Years of experience").fill("6");
}

/** An application sent as the form posts it, for journeys about the admin's side. */
async function applyDirectly(page: Page, fullName: string, email: string) {
  const response = await page.request.post(`${baseUrl}/register/doctor`, {
    headers: { Origin: baseUrl },
    multipart: {
      fullName,
      phone: "0911 55 66 77",
      email,
      cityCountry: "Mekelle, Ethiopia",
      experienceYears: "4",
      licence: { name: "licence.pdf", mimeType: "application/pdf", buffer: Buffer.from(licencePdf(fullName)) },
    },
    maxRedirects: 0,
    timeout: STEP_TIMEOUT_MS,
  });
  if (response.status() !== 303) throw new Error(`Applying answered ${response.status()}`);
}

async function signInAsAdmin(page: Page) {
  await signInDirectly(page, ADMIN_EMAIL, DEMO_PASSWORD);
  await page.waitForURL(/\/admin\/dashboard$/);
}

const cardOf = (page: Page, fullName: string) => page.getByTestId("registration-card").filter({ hasText: fullName });

/** The newest email to `email`: the outbox is reloaded until it shows (it goes out just after the answer). */
async function outboxMessageTo(page: Page, email: string) {
  const message = page.locator(`[data-testid="outbox-message"][data-to="${email}"]`).first();
  await expect
    .poll(
      async () => {
        await page.goto(`${baseUrl}/dev/outbox`);
        return message.count();
      },
      { message: `an email to ${email} on /dev/outbox` },
    )
    .toBe(1);
  return message;
}

describe("a dermatologist joins", () => {
  it("applies with a licence PDF on a phone, is approved, sets a password from the invite and reaches the doctor dashboard", async () => {
    const applicant = await startJourney();
    const { page } = applicant;
    const email = uniqueEmail("dr-liya");
    await page.goto(`${baseUrl}/`);
    await page.getByRole("link", { name: "Join as a doctor" }).first().click();
    await page.waitForURL(/\/register\/doctor$/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Dermatologist Registration");
    await fillApplication(page, "Liya Haile Bekele", email);
    await page.getByLabel("Medical licence file").setInputFiles(licenceOnDisk("liya-licence.pdf", "Liya licence"));
    await expect.poll(() => page.getByTestId("licence-chosen").textContent()).toContain("liya-licence.pdf");
    expect(await page.getByTestId("licence-chosen").isVisible()).toBe(true);
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await page.getByText("Registration Submitted!").waitFor();
    // From when the message shows: the page's own timer starts no earlier, however slow the audit below.
    const shownAt = Date.now();
    expect(await page.getByRole("link", { name: "Return to Home" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.waitForURL(`${baseUrl}/`);
    expect(Date.now() - shownAt).toBeGreaterThan(1_500);

    const admin = await startJourney();
    await signInAsAdmin(admin.page);
    await admin.page.goto(`${baseUrl}/admin/doctor-registrations?q=${encodeURIComponent(email)}`);
    expect(await admin.page.getByRole("heading", { level: 1 }).textContent()).toBe("Doctor Registrations");
    const card = cardOf(admin.page, "Liya Haile Bekele");
    expect(await card.locator("[data-status]").textContent()).toBe("Pending");
    expect(await card.getByTestId("licence-link").textContent()).toBe("liya-licence.pdf");
    const licence = await admin.page.request.get(`${baseUrl}${await card.getByTestId("licence-link").getAttribute("href")}`);
    expect(licence.headers()["content-type"]).toBe("application/pdf");
    await expectAccessible(admin.page);
    await card.getByRole("button", { name: "Approve" }).click();
    await expect
      .poll(() => admin.page.getByRole("status").first().textContent())
      .toContain("Liya Haile Bekele's application has been approved.");
    expect(await card.locator("[data-status]").textContent()).toBe("Approved");
    expect(await card.getByRole("button", { name: "Approve" }).count()).toBe(0);

    const doctor = await startJourney();
    await followEmailedLink(doctor.page, email);
    expect(path(doctor.page)).toBe("/invite");
    await doctor.page.getByLabel("New password").fill(DOCTOR_PASSWORD);
    await doctor.page.getByLabel("Confirm password").fill(DOCTOR_PASSWORD);
    await doctor.page.getByRole("button", { name: "Set password" }).click();
    await doctor.page.waitForURL(/\/login$/);
    await signIn(doctor.page, email, DOCTOR_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await expect.poll(() => doctor.page.getByTestId("dashboard-greeting").textContent()).toContain("Liya");
    expect([...applicant.problems, ...admin.problems, ...doctor.problems]).toEqual([]);
  });

  it("an admin rejects another application with a reason in the dialog, and the applicant is emailed", async () => {
    const admin = await startJourney();
    const { page } = admin;
    const email = uniqueEmail("dr-kebede");
    await applyDirectly(page, "Kebede Worku", email);
    await signInAsAdmin(page);
    await page.goto(`${baseUrl}/admin/doctor-registrations?q=${encodeURIComponent(email)}`);
    const card = cardOf(page, "Kebede Worku");
    const reject = card.getByRole("link", { name: "Reject" });
    // Before hydration the link would be followed to the in-place form (the no-JavaScript path).
    await hydrated(reject);
    await reject.click();
    await expect.poll(() => page.getByRole("dialog").isVisible()).toBe(true);
    const reason = page.getByRole("dialog").getByLabel(/Reason/);
    await expect.poll(() => reason.evaluate((field) => field === document.activeElement)).toBe(true);
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    await expect.poll(() => reject.evaluate((link) => link === document.activeElement)).toBe(true);
    expect(path(page)).toBe("/admin/doctor-registrations");

    await reject.click();
    await page
      .getByRole("dialog")
      .getByLabel(/Reason/)
      .fill("Your licence expired in 2024. Please apply again with a current one.");
    await page.getByRole("dialog").getByRole("button", { name: "Reject application" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("Application rejected");
    expect(await card.locator("[data-status]").textContent()).toBe("Rejected");
    expect(await card.textContent()).toContain("Your licence expired in 2024.");

    const message = await outboxMessageTo(page, email);
    expect(await message.textContent()).toContain("Your application to Qoda");
    expect(await message.textContent()).toContain("Reason: Your licence expired in 2024.");
    // Both languages: the admins' page in Amharic.
    await page.goto(`${baseUrl}/admin/doctor-registrations?lng=am`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("የሐኪሞች ማመልከቻዎች");
    expect(admin.problems).toEqual([]);
    // A long journey (an audit, an outbox polled by reloading): each step still fails by name at 15 s.
  });
});

describe("without JavaScript", () => {
  it("the application keeps what was typed after an error, then goes through; the reject form works in place", async () => {
    const applicant = await startJourney({ javaScriptEnabled: false });
    const { page } = applicant;
    const email = uniqueEmail("dr-nojs");
    await page.goto(`${baseUrl}/register/doctor?lng=am`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("የቆዳ ሐኪም ምዝገባ");
    await page.goto(`${baseUrl}/register/doctor?lng=en`);
    await fillApplication(page, "Hirut Desta", email);
    await page.getByRole("button", { name: "Submit Registration" }).click();
    expect(await page.getByText("Please fill in all required fields.").isVisible()).toBe(true);
    expect(await page.getByText("please choose your licence file again").isVisible()).toBe(true);
    expect(await page.getByLabel("Full name").inputValue()).toBe("Hirut Desta");
    expect(await page.getByLabel("Years of experience").inputValue()).toBe("6");
    await page.getByLabel("Medical licence file").setInputFiles(licenceOnDisk("hirut.pdf", "Hirut licence"));
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await page.getByText("Registration Submitted!").waitFor();
    await page.waitForURL(`${baseUrl}/`);

    const admin = await startJourney({ javaScriptEnabled: false });
    await signInAsAdmin(admin.page);
    await admin.page.goto(`${baseUrl}/admin/doctor-registrations?q=${encodeURIComponent(email)}`);
    const card = cardOf(admin.page, "Hirut Desta");
    await card.getByRole("link", { name: "Reject" }).click();
    await admin.page.waitForURL(/reject=/);
    await card.getByLabel(/Reason/).fill("We could not verify the licence number.");
    await card.getByRole("button", { name: "Reject application" }).click();
    await admin.page.getByText("Application rejected").first().waitFor();
    expect(new URL(admin.page.url()).searchParams.has("reject")).toBe(false);
    expect(await card.locator("[data-status]").textContent()).toBe("Rejected");
    expect(await card.textContent()).toContain("We could not verify the licence number.");
  });

  it("the contact form stores a message that admins read and mark as read", async () => {
    const visitor = await startJourney({ javaScriptEnabled: false });
    const subject = `Clinic hours ${Date.now().toString(36)}`;
    await visitor.page.goto(`${baseUrl}/feedback`);
    await visitor.page.getByLabel("Your name").fill("Mulu Kassa");
    await visitor.page.getByLabel("Email").fill(uniqueEmail("mulu"));
    await visitor.page.getByLabel("Subject").fill(subject);
    await visitor.page.getByLabel("Message").fill("Are you open on holidays?");
    await visitor.page.getByRole("button", { name: "Send message" }).click();
    await visitor.page.getByText("Message sent!").waitFor();

    const admin = await startJourney({ javaScriptEnabled: false });
    await signInAsAdmin(admin.page);
    await admin.page.goto(`${baseUrl}/admin/messages?q=${encodeURIComponent(subject)}`);
    const message = admin.page.getByTestId("contact-message").filter({ hasText: subject });
    expect(await message.getAttribute("data-read")).toBe("no");
    await message.getByRole("button", { name: "Mark as read" }).click();
    await admin.page.getByText("Marked as read.").first().waitFor();
    expect(await message.getAttribute("data-read")).toBe("yes");
  });
});
