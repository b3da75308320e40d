import { afterEach, describe, expect, it } from "vitest";

import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoConsultationIn } from "../support/demo-data";
import {
  baseUrl,
  documentRequestsLast,
  endJourneys,
  fillIntake,
  hydrated,
  type Journey,
  path,
  photoOnDisk,
  sendRequestDirectly,
  signInDirectly,
  signUpNewPatient,
  startJourney,
} from "./journey";

afterEach(endJourneys);

const hana = DEMO_ACCOUNTS.find((account) => account.email === "hana@qoda.test")!;
const hanasConsultation = demoConsultationIn("in_progress", (consultation) => consultation.patientId === hana.id);

/** A new patient's request, accepted by Dr. Abebe and paid in the sandbox: its id, the patient on its page. */
async function consultationUnderWay(patient: Journey, doctor: Journey) {
  await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
  await doctor.page.waitForURL(/\/doctor\/dashboard$/);
  await signUpNewPatient(patient.page, "Almaz");
  const complaint = `Chat written on the bus ${Date.now()}`;
  await sendRequestDirectly(patient.page, complaint);
  await doctor.page.goto(`${baseUrl}/doctor/dashboard`);
  await doctor.page.getByTestId("waiting-request").filter({ hasText: complaint }).getByRole("link", { name: /View/ }).click();
  await doctor.page.waitForURL(/\/doctor\/consultation\//);
  const id = path(doctor.page).split("/").pop()!;
  await doctor.page.getByRole("button", { name: "Accept" }).click();
  await doctor.page.getByTestId("awaiting-payment").waitFor();
  await patient.page.goto(`${baseUrl}/patient/payment/${id}`);
  await patient.page.getByRole("button", { name: "Pay 150 ETB" }).click();
  await patient.page.waitForURL(/\/dev\/payments\/checkout\//);
  await patient.page.getByRole("button", { name: "Pay", exact: true }).click();
  await patient.page.waitForURL(new RegExp(`/patient/consultation/${id}$`));
  return id;
}

describe("a flaky network loses nothing", () => {
  it("a signed-in patient's consultation reads again offline, and signing out leaves none of it behind", async () => {
    const { browser, page, problems } = await startJourney();
    await signInDirectly(page, hana.email, DEMO_PASSWORD);
    await page.waitForURL(/\/patient\/dashboard$/);
    const consultationUrl = `${baseUrl}/patient/consultation/${hanasConsultation.id}`;
    await page.goto(consultationUrl, { waitUntil: "networkidle" });
    const title = await page.getByTestId("consultation-title").textContent();

    // The browser's own word: a service worker is registered and active for this site.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration?.active?.scriptURL)))
      .toBe(`${baseUrl}/sw.js`);
    // It keeps the page this visit opened (fetched once it watched), to be read again offline.
    await expect.poll(() => page.evaluate((url) => caches.match(url).then(Boolean), consultationUrl)).toBe(true);

    await browser.setOffline(true);
    await page.reload();
    expect(await page.getByTestId("consultation-title").textContent()).toBe(title);
    await browser.setOffline(false);

    await page.goto(consultationUrl, { waitUntil: "networkidle" });
    // A request still waiting for the network (as the wizard keeps one) is private too.
    await page.evaluate(
      () =>
        new Promise((done) => {
          const opening = indexedDB.open("qoda-offline-queue", 1);
          opening.onupgradeneeded = () => opening.result.createObjectStore("requests").put({ fields: [] }, "new-consultation");
          opening.onsuccess = () => done(opening.result.close());
        }),
    );
    const queueKept = () => page.evaluate(() => indexedDB.databases().then((all) => all.some((db) => db.name === "qoda-offline-queue")));
    expect(await queueKept()).toBe(true);
    // The sign-in page is asked for last, as on a slow phone: it still says the person signed out.
    await documentRequestsLast(browser, "/login");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/login$/);
    expect(await page.getByRole("status").textContent()).toContain("You have signed out.");
    await expect.poll(() => page.evaluate(() => caches.has("qoda-pages"))).toBe(false);
    await expect.poll(queueKept).toBe(false);
    // The next page signed out (a reload here) takes the worker away too.
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then(Boolean))).toBe(false);
    expect(problems).toEqual([]);
  });

  it("a request written without a connection waits in the browser, says so, and is sent once when the network returns", async () => {
    const { browser, page, problems } = await startJourney();
    await signUpNewPatient(page, "Meron");
    await page.goto(`${baseUrl}/patient/new-consultation?step=2`, { waitUntil: "networkidle" });
    const complaint = `A rash written on the bus ${Date.now()}`;
    await page.getByLabel("What is going on with your skin?").fill(complaint);
    await fillIntake(page);

    await browser.setOffline(true);
    await page.getByRole("button", { name: "Submit request" }).click();
    expect(await page.getByTestId("request-waiting").textContent()).toContain("will be sent by itself");
    expect(page.url()).toContain("step=2");

    await browser.setOffline(false);
    await page.waitForURL(/step=3/);
    await page.goto(`${baseUrl}/patient/consultations`);
    expect(await page.getByText(complaint).count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("a photo chosen without a connection waits in the browser, survives the page closing, and is uploaded when the network returns", async () => {
    const { browser, page, problems } = await startJourney();
    await signUpNewPatient(page, "Selam");
    await page.goto(`${baseUrl}/patient/new-consultation?step=1`, { waitUntil: "networkidle" });
    await hydrated(page.getByTestId("photo-input"));

    await browser.setOffline(true);
    await page.getByTestId("photo-input").setInputFiles(photoOnDisk("offline-rash.png"));
    const upload = page.getByTestId("photo-upload");
    await expect.poll(() => upload.getAttribute("data-status")).toBe("waiting");
    expect(await upload.textContent()).toContain("Waiting for the network");
    await page.close();

    // Later, with the network back: the wizard finds the photo kept on this device and uploads it once.
    await browser.setOffline(false);
    const later = await browser.newPage();
    await later.goto(`${baseUrl}/patient/new-consultation?step=1`, { waitUntil: "networkidle" });
    const restored = later.getByTestId("photo-upload");
    await expect.poll(() => restored.getAttribute("data-status")).toBe("done");
    expect(await restored.count()).toBe(1);
    expect(await restored.getByRole("img").getAttribute("alt")).toBe("offline-rash.png");
    await expect.poll(() => new URL(later.url()).searchParams.get("draft")).toMatch(/^[0-9a-f-]{36}$/);
    // It is no longer kept: a reload shows it once, as stored on the server.
    await later.reload({ waitUntil: "networkidle" });
    expect(await later.getByTestId("stored-photo").count()).toBe(1);
    expect(await later.getByTestId("photo-upload").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("a request sent while a photo chosen offline still waits takes the photo with it", async () => {
    const { browser, page, problems } = await startJourney();
    await signUpNewPatient(page, "Tigist");
    await page.goto(`${baseUrl}/patient/new-consultation?step=1`, { waitUntil: "networkidle" });
    await hydrated(page.getByTestId("photo-input"));
    await browser.setOffline(true);
    await page.getByTestId("photo-input").setInputFiles(photoOnDisk());
    await expect.poll(() => page.getByTestId("photo-upload").getAttribute("data-status")).toBe("waiting");
    await page.close();

    // Back online, the patient opens the words' step straight away and sends the request.
    await browser.setOffline(false);
    const later = await browser.newPage();
    await later.goto(`${baseUrl}/patient/new-consultation?step=2`, { waitUntil: "networkidle" });
    const complaint = `Spots photographed offline ${Date.now()}`;
    await hydrated(later.getByRole("button", { name: "Submit request" }));
    await later.getByLabel("What is going on with your skin?").fill(complaint);
    await fillIntake(later);
    await later.getByRole("button", { name: "Submit request" }).click();
    await later.waitForURL(/step=3/);
    await later.goto(`${baseUrl}/patient/consultations`);
    await later.getByText(complaint).click();
    await expect.poll(() => later.getByTestId("photo-thumbnail").count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("chat typed offline shows as waiting, then reaches the doctor in the order it was written", async () => {
    const patient = await startJourney();
    const doctor = await startJourney();
    // A consultation of its own: the demo one's chat is near the 30-a-minute limit after the chat journeys.
    const id = await consultationUnderWay(patient, doctor);
    await patient.page.locator('[data-testid="chat"][data-live]').waitFor();
    await doctor.page.goto(`${baseUrl}/doctor/consultation/${id}`);
    await doctor.page.locator('[data-testid="chat"][data-live]').waitFor();

    const stamp = Date.now().toString(36);
    const texts = [`First, on the bus ${stamp}`, `Second, still offline ${stamp}`, `Third, nearly home ${stamp}`];
    await patient.browser.setOffline(true);
    for (const text of texts) {
      await patient.page.getByLabel("Your message").fill(text);
      await patient.page.getByRole("button", { name: "Send", exact: true }).click();
    }
    const pending = patient.page.getByTestId("chat-pending");
    await expect.poll(() => pending.count()).toBe(3);
    expect(await pending.first().textContent()).toContain("Waiting for the network");

    await patient.browser.setOffline(false);
    await expect.poll(() => pending.count()).toBe(0);
    const arrived = async () =>
      (await doctor.page.getByTestId("chat-message").allTextContents())
        .filter((content) => content.includes(stamp))
        .map((content) => texts.findIndex((text) => content.includes(text)));
    await expect.poll(arrived).toEqual([0, 1, 2]);
    expect(patient.problems).toEqual([]);
    expect(doctor.problems).toEqual([]);
  });
});
