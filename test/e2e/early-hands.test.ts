// What a patient does before the page's scripts have run, as on a slow phone where that takes seconds:
// it is kept when the page hydrates, never silently dropped or cleared.
import { afterEach, describe, expect, it } from "vitest";

import { DEMO_PASSWORD, demoConsultationIn } from "../support/demo-data";
import { consultationIdIn } from "./arrange";
import {
  baseUrl,
  endJourneys,
  holdScripts,
  hydrated,
  photoOnDisk,
  sendRequestDirectly,
  signInDirectly,
  signUpNewPatient,
  startJourney,
} from "./journey";

afterEach(endJourneys);

describe("touched before the page hydrates", () => {
  it("a photo chosen on step 1 before the scripts ran is uploaded once they run, with what she said it shows", async () => {
    const { page, problems } = await startJourney({ slowPhone: true, holdsScripts: true });
    await signUpNewPatient(page, "Hanna");
    const letGo = await holdScripts(page);
    await page.goto(`${baseUrl}/patient/new-consultation`, { waitUntil: "domcontentloaded" });
    // The server's form, the one a phone shows first: the patient picks a photo at once.
    await page.getByLabel("Choose photos").setInputFiles(photoOnDisk());
    await page.getByLabel("Kind of photo").selectOption("close_up");
    await letGo();
    await hydrated(page.getByTestId("wizard-next"));
    const upload = page.getByTestId("photo-upload");
    await expect.poll(() => upload.getAttribute("data-status")).toBe("done");
    expect(await upload.count()).toBe(1);
    // What she said it shows went with it: the uploaded photo's own form reads it back.
    expect(await upload.getByLabel("Kind of photo").inputValue()).toBe("close_up");
    await page.getByTestId("wizard-next").click();
    await page.waitForURL(/step=2&draft=/);
    expect(problems.join("\n")).toBe("");
  });

  it("the sex, body areas and every answer given on step 2 before the scripts ran are sent as given", async () => {
    const { page, problems } = await startJourney({ slowPhone: true, holdsScripts: true });
    await signUpNewPatient(page, "Meron");
    const letGo = await holdScripts(page);
    await page.goto(`${baseUrl}/patient/new-consultation?step=2`, { waitUntil: "domcontentloaded" });
    await page.getByLabel("What is going on with your skin?").fill("An itchy ring on my arm");
    await page.getByLabel("Age (years)").fill("34");
    await page.getByLabel("Female", { exact: true }).check();
    await page.getByLabel("Left forearm").check();
    await page.getByLabel("How many").fill("3");
    await page.getByLabel("Days, weeks, months or years").selectOption("weeks");
    await page.getByLabel("Bleeding").check();
    await letGo();
    const submit = page.getByRole("button", { name: "Submit request" });
    await hydrated(submit);
    expect(await page.getByLabel("Female", { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel("Left forearm").isChecked()).toBe(true);
    expect(await page.getByLabel("Bleeding").isChecked()).toBe(true);
    expect(await page.getByLabel("Days, weeks, months or years").inputValue()).toBe("weeks");
    await submit.click();
    await page.waitForURL(/step=3/);
    expect(problems.join("\n")).toBe("");
  });
});

/**
 * Taps `testId` just as React begins to hydrate, before it has drawn anything: a thumb on a slow phone
 * does that when the page looks ready. React starts listening for clicks on the document then (nothing of
 * ours listens there), and the tap comes once that step of its work is done.
 * Run in the page before its own scripts; it sets `window.tapped` once it has tapped.
 */
function tapAsHydrationBegins(testId: string) {
  const listen = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, ...args: Parameters<EventTarget["addEventListener"]>) {
    const page = window as unknown as { tapped?: boolean; tapping?: boolean };
    if (this === document && args[0] === "click" && !page.tapping) {
      page.tapping = true;
      queueMicrotask(() => {
        document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)?.click();
        page.tapped = true;
      });
    }
    return listen.apply(this, args);
  };
}

describe("a tap while the page hydrates", () => {
  it("leaves the page working (no React #345): the dashboard tapped as it hydrates still hydrates, and its links are the app's", async () => {
    const { page, problems } = await startJourney({ slowPhone: true });
    await signUpNewPatient(page, "Selam");
    await page.addInitScript(tapAsHydrationBegins, "dashboard-greeting");
    await page.goto(`${baseUrl}/patient/dashboard`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { tapped?: boolean }).tapped)).toBe(true);
    const profile = page.getByRole("link", { name: "Profile" });
    // A page React gave up on is never hydrated, and says why in the console: wait for either.
    const isHydrated = () => profile.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps")));
    await expect.poll(async () => problems.length > 0 || (await isHydrated())).toBe(true);
    expect(problems.join("\n")).toBe("");
    // The app's own navigation: no new document is loaded.
    let documentsLoaded = 0;
    page.on("request", (request) => {
      if (request.resourceType() === "document") documentsLoaded += 1;
    });
    await profile.click();
    await page.waitForURL(/\/patient\/profile$/);
    expect(documentsLoaded).toBe(0);
    expect(problems.join("\n")).toBe("");
  });
});

describe("news that arrives while a part of the page still hydrates", () => {
  it("waits for that part instead of throwing it away (no React #421): a doctor's answer reaches a request page whose panel is slow to load", async () => {
    const patient = await startJourney({ slowPhone: true, holdsScripts: true });
    await signUpNewPatient(patient.page, "Saba");
    const complaint = `A patch that itches at night ${Date.now()}`;
    const led = await sendRequestDirectly(patient.page, complaint);
    const id = consultationIdIn(led);
    // The request's waiting panel is a chunk of its own, loaded lazily: held back, as a slow line would.
    const letGo = await holdScripts(patient.page, /^\/assets\/request-status-panel-[^/]*\.js$/);
    const heard: string[] = [];
    patient.page.on("websocket", (socket) => socket.on("framereceived", ({ payload }) => heard.push(String(payload))));
    await patient.page.goto(`${baseUrl}/patient/consultation/${id}`);
    await expect.poll(() => heard.length).toBeGreaterThan(0);

    const doctor = await startJourney();
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.goto(`${baseUrl}/doctor/consultation/${id}`);
    await doctor.page.getByRole("button", { name: "Accept" }).click();
    await doctor.page.getByTestId("awaiting-payment").waitFor();
    // The room told the patient's page while its panel still waited for its script; a frame later the page has drawn it.
    await expect.poll(() => heard.some((frame) => frame.includes("accepted_awaiting_payment"))).toBe(true);
    await patient.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    await letGo();
    await patient.page.waitForURL(/\/patient\/payment\//);
    expect(patient.problems.join("\n")).toBe("");
  });

  it("waits for that part instead of throwing it away (no React #421): the doctors' queue reaches a completed consultation whose summary is slow to load", async () => {
    const doctor = await startJourney({ slowPhone: true, holdsScripts: true });
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    // The summary is a chunk of its own; the header's bell opens the lobby, whose queue every doctor page reads.
    const letGo = await holdScripts(doctor.page, /^\/assets\/consultation-summary-[^/]*\.js$/);
    const lobbyFrames: string[] = [];
    doctor.page.on("websocket", (socket) => {
      if (socket.url().includes("lobby")) socket.on("framereceived", ({ payload }) => lobbyFrames.push(String(payload)));
    });
    await doctor.page.goto(`${baseUrl}/doctor/consultation/${demoConsultationIn("completed").id}`);
    await expect.poll(() => lobbyFrames.some((frame) => frame.includes('"queue"'))).toBe(true);
    await doctor.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    await letGo();
    await hydrated(doctor.page.getByTestId("printable-summary"));
    expect(doctor.problems.join("\n")).toBe("");
  });
});
