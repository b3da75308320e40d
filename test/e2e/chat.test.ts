import type { Page, WebSocket } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_PASSWORD, demoConsultationIn } from "../support/demo-data";
import { baseUrl, endJourneys, path, photoOnDisk, signInDirectly, startJourney } from "./journey";

afterEach(endJourneys);

// The seeded consultations between Hana and Dr. Abebe: one paid for and under way, one completed.
const inProgress = demoConsultationIn("in_progress").id;
const completed = demoConsultationIn("completed").id;

/**
 * Signs in and opens the consultation's page; resolves with the sockets the page opened to this
 * consultation's room (reconnections included). The dashboard left behind may have had a room of
 * another consultation open (a waiting request's); Playwright does not always report its close when
 * the page navigates away, so only this consultation's room is counted.
 */
async function openChat(page: Page, email: string, consultationPath: string) {
  await signInDirectly(page, email, DEMO_PASSWORD);
  await page.waitForURL(/\/(patient|doctor)\/dashboard$/);
  const roomSockets: WebSocket[] = [];
  const consultationId = consultationPath.split("/").at(-1)!;
  page.on("websocket", (socket) => {
    if (!socket.url().includes(`/parties/consultation-room/${consultationId}`)) return;
    roomSockets.push(socket);
    // An attempt abandoned while still connecting ends in an error, and Playwright reports no close for it.
    socket.on("socketerror", () => failedSockets.add(socket));
  });
  await page.goto(`${baseUrl}${consultationPath}`);
  // The live half has loaded: the form now sends over the socket.
  await page.locator('[data-testid="chat"][data-live]').waitFor();
  return roomSockets;
}

async function send(page: Page, text: string) {
  await page.getByLabel("Your message").fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

const message = (page: Page, text: string) => page.getByTestId("chat-message").filter({ hasText: text });

/** Sends `texts` in order over a socket of the page's own (its session's), and resolves once the room has stored each. */
function sendOverSocket(page: Page, consultationId: string, texts: string[]) {
  return page.evaluate(
    ({ consultationId, texts }) =>
      new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(`${location.origin.replace(/^http/, "ws")}/parties/consultation-room/${consultationId}`);
        const waiting = new Set<string>();
        socket.onerror = () => reject(new Error("socket failed"));
        socket.onmessage = (event) => {
          const data = JSON.parse(String(event.data)) as { type: string; clientId?: string };
          if (data.type === "send_refused") reject(new Error(`refused: ${String(event.data)}`));
          if (data.type !== "message" || !data.clientId) return;
          waiting.delete(data.clientId);
          if (waiting.size === 0) {
            socket.close();
            resolve();
          }
        };
        socket.onopen = () => {
          for (const text of texts) {
            const clientId = crypto.randomUUID();
            waiting.add(clientId);
            socket.send(JSON.stringify({ type: "send", clientId, text }));
          }
        };
      }),
    { consultationId, texts },
  );
}

/** Sockets that ended in an error rather than a close (see openChat). */
const failedSockets = new WeakSet<WebSocket>();

/** Fits the phone's width: nothing wider than the window. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe("the consultation chat", () => {
  it("patient and doctor chat both ways live, with text and a photo, at 360 px", async () => {
    const patient = await startJourney({ slowPhone: true });
    const doctor = await startJourney();
    const patientSockets = await openChat(patient.page, "hana@qoda.test", `/patient/consultation/${inProgress}`);
    const doctorSockets = await openChat(doctor.page, "dr.abebe@qoda.test", `/doctor/consultation/${inProgress}`);
    // One socket a page: the status, the presence and the chat share it. (On a loaded machine a first
    // attempt may time out and be replaced; the one it leaves behind is closing, not a second channel.)
    const open = (sockets: WebSocket[]) => sockets.filter((socket) => !socket.isClosed() && !failedSockets.has(socket)).length;
    await expect.poll(() => [open(patientSockets), open(doctorSockets)]).toEqual([1, 1]);

    // The patient's doctor card says the doctor is here.
    const card = patient.page.getByTestId("doctor-card");
    expect(await card.textContent()).toContain("Dr. Abebe");
    expect(await card.textContent()).toContain("Dermatologist");
    await expect.poll(() => patient.page.getByTestId("doctor-presence").textContent()).toBe("Online");

    const stamp = Date.now();
    await send(patient.page, `Hello doctor ${stamp}`);
    await message(doctor.page, `Hello doctor ${stamp}`).waitFor();
    await message(patient.page, `Hello doctor ${stamp}`).waitFor();
    // Sent: the box is empty again, and the patient's own message is marked as theirs.
    await expect.poll(() => patient.page.getByLabel("Your message").inputValue()).toBe("");
    expect(await message(patient.page, `Hello doctor ${stamp}`).getAttribute("data-own")).toBe("");
    expect(await message(doctor.page, `Hello doctor ${stamp}`).getAttribute("data-own")).toBeNull();
    expect(await message(doctor.page, `Hello doctor ${stamp}`).textContent()).toContain("Hana Bekele");

    await send(doctor.page, `Please send a photo ${stamp}`);
    await message(patient.page, `Please send a photo ${stamp}`).waitFor();
    expect(await message(patient.page, `Please send a photo ${stamp}`).textContent()).toContain("Dr. Abebe");

    const photosBefore = await doctor.page.locator('[data-testid="chat-message"][data-kind="image"]').count();
    await patient.page.getByTestId("chat-image").setInputFiles(photoOnDisk());
    await patient.page.getByRole("button", { name: "Send", exact: true }).click();
    const photo = doctor.page.locator('[data-testid="chat-message"][data-kind="image"]').nth(photosBefore);
    await photo.waitFor();
    // Opened in the photo viewer, and closed with Escape.
    await photo.getByRole("link").click();
    await doctor.page.getByTestId("photo-dialog").waitFor();
    expect(await doctor.page.getByTestId("photo-dialog").getAttribute("aria-label")).toBe("Photo from Hana Bekele");
    await doctor.page.keyboard.press("Escape");
    await doctor.page.getByTestId("photo-dialog").waitFor({ state: "detached" });

    // A message that is too long is refused, and the words stay in the box.
    const tooLong = "a".repeat(4001);
    await send(patient.page, tooLong);
    await patient.page.getByText("A message can have at most 4,000 characters.").waitFor();
    expect(await patient.page.getByLabel("Your message").inputValue()).toBe(tooLong);
    await expectAccessible(patient.page);

    // The doctor leaves: the patient sees it.
    await doctor.page.goto(`${baseUrl}/doctor/dashboard`);
    await expect.poll(() => patient.page.getByTestId("doctor-presence").textContent()).toBe("Offline");

    for (const { page } of [patient, doctor]) expect(await fitsWidth(page)).toBe(true);
    expect(patient.problems.join("\n")).toBe("");
    expect(doctor.problems.join("\n")).toBe("");
  });

  it("sends with Enter on a computer, and Shift+Enter starts a new line", async () => {
    const doctor = await startJourney();
    await openChat(doctor.page, "dr.abebe@qoda.test", `/doctor/consultation/${inProgress}`);
    await doctor.page.getByText("Enter sends the message; Shift+Enter starts a new line.").waitFor();
    const stamp = Date.now();
    const box = doctor.page.getByLabel("Your message");
    await box.click();
    await doctor.page.keyboard.type(`First line ${stamp}`);
    await doctor.page.keyboard.press("Shift+Enter");
    await doctor.page.keyboard.type(`Second line ${stamp}`);
    // Shift+Enter kept both lines in the box: nothing was sent yet.
    expect(await box.inputValue()).toBe(`First line ${stamp}\nSecond line ${stamp}`);
    await doctor.page.keyboard.press("Enter");
    const sent = message(doctor.page, `Second line ${stamp}`);
    await sent.waitFor();
    expect(await sent.textContent()).toContain(`First line ${stamp}`);
    await expect.poll(() => box.inputValue()).toBe("");
    expect(doctor.problems.join("\n")).toBe("");
  });

  it("works without JavaScript: the history is on the page and the form sends and comes back", async () => {
    const patient = await startJourney({ javaScriptEnabled: false });
    await signInDirectly(patient.page, "hana@qoda.test", DEMO_PASSWORD);
    await patient.page.waitForURL(/\/patient\/dashboard$/);
    const consultationPath = `/patient/consultation/${inProgress}`;
    await patient.page.goto(`${baseUrl}${consultationPath}`);
    const text = `Sent without JavaScript ${Date.now()}`;
    await send(patient.page, text);
    await patient.page.waitForLoadState("load");
    expect(path(patient.page)).toBe(consultationPath);
    await message(patient.page, text).waitFor();

    // A photo too.
    const photos = await patient.page.locator('[data-testid="chat-message"][data-kind="image"]').count();
    await patient.page.getByTestId("chat-image").setInputFiles(photoOnDisk());
    await patient.page.getByRole("button", { name: "Send", exact: true }).click();
    await patient.page.waitForLoadState("load");
    expect(await patient.page.locator('[data-testid="chat-message"][data-kind="image"]').count()).toBe(photos + 1);
    expect(await fitsWidth(patient.page)).toBe(true);
  });

  // Last in this file: it fills the chat past a page, so the journeys above must not count on seeing every message.
  it("opens a long chat at its newest 50 messages; earlier ones are a link away, and live messages still arrive", async () => {
    const patient = await startJourney();
    const doctor = await startJourney();
    await openChat(patient.page, "hana@qoda.test", `/patient/consultation/${inProgress}`);
    await openChat(doctor.page, "dr.abebe@qoda.test", `/doctor/consultation/${inProgress}`);
    // 51 messages from both sides, each person under the limit of 30 a minute (with what they sent above).
    const stamp = Date.now();
    const numbered = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) => `Long chat ${stamp} [${from + index}]`);
    await sendOverSocket(patient.page, inProgress, numbered(1, 24));
    await sendOverSocket(doctor.page, inProgress, numbered(25, 51));
    await message(patient.page, `Long chat ${stamp} [51]`).waitFor();

    await patient.page.reload();
    await patient.page.locator('[data-testid="chat"][data-live]').waitFor();
    await message(patient.page, `Long chat ${stamp} [51]`).waitFor();
    expect(await patient.page.getByTestId("chat-message").count()).toBe(50);
    expect(await message(patient.page, `Long chat ${stamp} [1]`).count()).toBe(0);
    const earlier = patient.page.getByRole("link", { name: "Show earlier messages" });
    await earlier.focus();
    await patient.page.keyboard.press("Enter");
    await message(patient.page, `Long chat ${stamp} [1]`).waitFor();
    expect(await patient.page.getByTestId("chat-message").count()).toBeGreaterThan(51);
    expect(new URL(patient.page.url()).searchParams.get("messages")).toBe("100");

    // Still live after the earlier page came in.
    await send(doctor.page, `After paging ${stamp}`);
    await message(patient.page, `After paging ${stamp}`).waitFor();
    expect(await message(patient.page, `Long chat ${stamp} [1]`).count()).toBe(1);
    expect(await fitsWidth(patient.page)).toBe(true);
    expect(patient.problems.join("\n")).toBe("");
    expect(doctor.problems.join("\n")).toBe("");
  });

  it("shows a completed consultation's chat with the ended message instead of the form, on both sides", async () => {
    const patient = await startJourney();
    const doctor = await startJourney();
    await signInDirectly(patient.page, "hana@qoda.test", DEMO_PASSWORD);
    await patient.page.waitForURL(/\/patient\/dashboard$/);
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    for (const [page, pagePath] of [
      [patient.page, `/patient/consultation/${completed}`],
      [doctor.page, `/doctor/consultation/${completed}`],
    ] as const) {
      await page.goto(`${baseUrl}${pagePath}`, { waitUntil: "networkidle" });
      await page.getByTestId("chat-ended").waitFor();
      expect(await page.getByTestId("chat-ended").textContent()).toBe("This consultation has ended.");
      expect(await page.getByLabel("Your message").count()).toBe(0);
    }
    expect(patient.problems.join("\n")).toBe("");
    expect(doctor.problems.join("\n")).toBe("");
  });
});
