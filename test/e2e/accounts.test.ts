import { afterEach, describe, expect, it } from "vitest";

import { DEMO_PASSWORD } from "../support/demo-data";
import {
  baseUrl,
  endJourneys,
  followEmailedLink,
  hydrated,
  type Journey,
  NEW_PATIENT_PASSWORD,
  path,
  signIn,
  signUpNewPatient,
  startJourney,
  uniqueEmail,
} from "./journey";

let journey: Journey | undefined;
afterEach(endJourneys);

const PASSWORD = "Healthy-Skin-2026";

async function fillSignUp(page: Journey["page"], email: string) {
  await page.getByLabel("First name").fill("Meklit");
  await page.getByLabel("Last name").fill("Assefa");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
}

describe("a patient signs up by email", () => {
  it("with JavaScript: consent unlocks the buttons, the email confirms, sign-in leads to the dashboard", async () => {
    journey = await startJourney({ slowPhone: true });
    const { page, problems } = journey;
    const email = uniqueEmail("meklit");
    await page.goto(`${baseUrl}/register?type=patient`);
    await fillSignUp(page, email);
    const submit = page.getByRole("button", { name: "Sign up", exact: true });
    await expect.poll(() => submit.isDisabled()).toBe(true);
    expect(await page.getByTestId("google-sign-in").isDisabled()).toBe(true);
    expect(await page.getByRole("link", { name: "Terms of Service" }).first().getAttribute("target")).toBe("_blank");
    await page.getByLabel(/Terms of Service/).check();
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel(/Privacy Policy/).check();
    expect(await submit.isDisabled()).toBe(false);
    await submit.click();
    await page.waitForURL((url) => !url.pathname.startsWith("/patient"));
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Please check your email to confirm your account.");

    await followEmailedLink(page, email);
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Email confirmed");

    await signIn(page, email, PASSWORD);
    await page.waitForURL(/\/patient\/dashboard$/);
    await expect.poll(() => page.getByTestId("dashboard-greeting").textContent()).toBe("Welcome, Meklit!");
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Welcome to Qoda, Meklit!");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await page.getByTestId("sign-out").click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${baseUrl}/patient/dashboard`);
    expect(path(page)).toBe("/login");
    expect(problems).toEqual([]);
  });

  it("without JavaScript: the server refuses missing consent, keeps the typed fields, and the rest works", async () => {
    journey = await startJourney({ javaScriptEnabled: false });
    const { page } = journey;
    const email = uniqueEmail("nojs");
    await page.goto(`${baseUrl}/register`);
    await fillSignUp(page, email);
    await page.getByLabel(/Terms of Service/).check();
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    expect(await page.getByText("You must agree to all consent terms to create an account").isVisible()).toBe(true);
    expect(await page.getByLabel("Last name").inputValue()).toBe("Assefa");
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    expect(await page.getByLabel(/Terms of Service/).isChecked()).toBe(true);

    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByLabel(/Privacy Policy/).check();
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/patient"));
    await followEmailedLink(page, email);
    await signIn(page, email, PASSWORD);
    await page.waitForURL(/\/patient\/dashboard$/);
    await expect.poll(() => page.getByTestId("dashboard-greeting").textContent()).toBe("Welcome, Meklit!");
  });
});

describe("Google sign-in through the local stand-in", () => {
  it("creates the patient, asks for consent, then opens the dashboard", async () => {
    journey = await startJourney();
    const { page, problems } = journey;
    await page.goto(`${baseUrl}/login`);
    await page.getByTestId("google-sign-in").click();
    await page.waitForURL(/\/dev\/google\/authorize/);
    await page.getByTestId("google-identity-stand-in-amina").click();
    await page.waitForURL(/\/consent$/);
    const proceed = page.getByRole("button", { name: "Continue" });
    await expect.poll(() => proceed.isDisabled()).toBe(true);
    await page.getByLabel(/Terms of Service/).check();
    await page.getByLabel(/Privacy Policy/).check();
    await proceed.click();
    await page.waitForURL(/\/patient\/dashboard$/);
    await expect.poll(() => page.getByTestId("dashboard-greeting").textContent()).toBe("Welcome, Amina!");
    expect(problems).toEqual([]);
  });

  it("lets a patient continue who ticked both boxes before the page's script had arrived", async () => {
    journey = await startJourney();
    const { browser, page, problems } = journey;
    await page.goto(`${baseUrl}/login`);
    await page.getByTestId("google-sign-in").click();
    await page.waitForURL(/\/dev\/google\/authorize/);
    // The consent page's scripts are held until both boxes are ticked, as on a slow phone.
    let scriptsArrive!: () => void;
    const arrived = new Promise<void>((resolve) => (scriptsArrive = resolve));
    await browser.route(/\/assets\/.+\.js$/, async (route) => {
      await arrived;
      await route.fallback();
    });
    await page.getByTestId("google-identity-stand-in-kebede").click();
    await page.waitForURL(/\/consent$/, { waitUntil: "commit" });
    await page.getByLabel(/Terms of Service/).check();
    await page.getByLabel(/Privacy Policy/).check();
    scriptsArrive();
    const proceed = page.getByRole("button", { name: "Continue" });
    await hydrated(proceed);
    await proceed.click();
    await page.waitForURL(/\/patient\/dashboard$/);
    await expect.poll(() => page.getByTestId("dashboard-greeting").textContent()).toBe("Welcome, Kebede!");
    expect(problems).toEqual([]);
  });
});

describe("account links opened by someone signed in", () => {
  it("read in words once the page has hydrated (the guest's texts load for them too)", async () => {
    journey = await startJourney();
    const { page, problems } = journey;
    await signIn(page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await page.waitForURL(/\/doctor\/dashboard$/);
    await page.goto(`${baseUrl}/forgot-password`);
    const submit = page.getByRole("button", { name: "Send reset link" });
    await hydrated(submit);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Reset your password");
    await page.goto(`${baseUrl}/reset-password?token=expired`);
    const askAgain = page.getByRole("link", { name: "Reset your password" });
    await hydrated(askAgain);
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain("This link no longer works");
    expect(problems).toEqual([]);
  });
});

describe("guards", () => {
  it("stop a sixth wrong password with the wait time, and offer the owner a way in by an emailed link", async () => {
    journey = await startJourney();
    const { page, problems } = journey;
    for (let attempt = 1; attempt <= 5; attempt++) {
      await signIn(page, "dawit@qoda.test", `Wrong-password-${attempt}`);
      await page.getByTestId("form-alert").waitFor();
      expect(await page.getByTestId("form-alert").textContent()).toContain("The email or password is incorrect.");
    }
    await signIn(page, "dawit@qoda.test", "Wrong-password-6");
    await page.getByTestId("form-alert").waitFor();
    expect(await page.getByTestId("form-alert").textContent()).toMatch(/Too many attempts\. Please wait 1[45] minutes and try again\./);

    // The owner, on this very browser, asks for a one-time sign-in link instead of waiting.
    await page.getByRole("link", { name: "Email me a one-time sign-in link instead" }).click();
    await page.waitForURL(/\/sign-in-link\?email=/);
    expect(await page.getByLabel("Email").inputValue()).toBe("dawit@qoda.test");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect.poll(() => page.getByTestId("link-sent").textContent()).toContain("a sign-in link is on its way");
    await followEmailedLink(page, "dawit@qoda.test");
    expect(path(page)).toBe("/sign-in-link");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(/\/patient\/dashboard$/);
    await expect.poll(() => page.getByTestId("dashboard-greeting").textContent()).toBe("Welcome, Dawit!");
    expect(problems).toEqual([]);
  });

  it("send a patient who opens a doctor's page to Access denied", async () => {
    journey = await startJourney();
    const { page } = journey;
    await signIn(page, "hana@qoda.test", DEMO_PASSWORD);
    await page.waitForURL(/\/patient\/dashboard$/);
    await page.goto(`${baseUrl}/doctor/dashboard`);
    expect(path(page)).toBe("/access-denied");
    await expect.poll(() => page.locator("h1").textContent()).toBe("Access denied");
  });

  it("sign an inactive doctor out onto Account Inactive", async () => {
    journey = await startJourney();
    const { page } = journey;
    await signIn(page, "dr.selam@qoda.test", DEMO_PASSWORD);
    await page.waitForURL(/\/account-issue$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Account Inactive");
    expect(await page.locator("body").textContent()).not.toContain("signed in as a doctor");
    await page.goto(`${baseUrl}/doctor/dashboard`);
    expect(path(page)).toBe("/login");
  });

  it("bring an anonymous visitor back to the page they asked for after signing in", async () => {
    journey = await startJourney();
    const { page } = journey;
    await page.goto(`${baseUrl}/doctor/profile`);
    expect(path(page)).toBe("/login");
    await page.getByLabel("Email").fill("dr.abebe@qoda.test");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(/\/doctor\/profile$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Profile");
  });

  it("speak Amharic on the sign-in page, errors included", async () => {
    journey = await startJourney();
    const { page } = journey;
    await page.goto(`${baseUrl}/login?lng=am`);
    await expect.poll(() => page.locator("h1").textContent()).toBe("ይግቡ");
    await page.getByLabel("ኢሜይል").fill("hana@qoda.test");
    await page.getByLabel("የይለፍ ቃል", { exact: true }).fill("Not-her-password-1");
    await page.getByRole("button", { name: "ይግቡ", exact: true }).click();
    await page.getByTestId("form-alert").waitFor();
    expect(await page.getByTestId("form-alert").textContent()).toContain("ኢሜይሉ ወይም የይለፍ ቃሉ ትክክል አይደለም።");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it("keep the language chosen before signing in", async () => {
    journey = await startJourney();
    const { page } = journey;
    const email = await signUpNewPatient(page, "Tsion");
    await page.getByTestId("sign-out").click();
    await page.waitForURL((url) => !url.pathname.startsWith("/patient"));
    await page.goto(`${baseUrl}/login?lng=am`);
    await page.getByLabel("ኢሜይል").fill(email);
    await page.getByLabel("የይለፍ ቃል", { exact: true }).fill(NEW_PATIENT_PASSWORD);
    await page.getByRole("button", { name: "ይግቡ", exact: true }).click();
    await page.waitForURL(/\/patient\/dashboard$/);
    expect(await page.locator("html").getAttribute("lang")).toBe("am");
    await page.goto(`${baseUrl}/patient/profile`);
    expect(await page.getByLabel("የሚመርጡት ቋንቋ").inputValue()).toBe("am");
  });
});
