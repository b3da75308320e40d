// Shared steps of browser journeys.
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { BrowserContext, Download, Locator, Page, Request, WebSocketRoute } from "playwright-core";
import { afterAll, expect, inject, onTestFailed, type TestContext } from "vitest";

import { closeSharedBrowser, openBrowser, recentPlaywrightCalls, SLOW_PHONE_CPU_SLOWDOWN } from "../support/chromium";

// This file's lane: the servers of the worker it runs in, which no file running at the same time uses.
const lanes = inject("journeyLanes");
const lane = lanes[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % lanes.length]!;
export const baseUrl = lane.baseUrl;
/** The lane's server with a 5-second payment window (`shortPaymentWindowSeconds`). */
export const shortWindowBaseUrl = lane.shortWindowBaseUrl;

/**
 * How long one step may take before it fails by its own name, well before the test's 600 s limit hides which it
 * was. Requests sent straight to the server (`page.request`) pass it themselves: they wait 30 s otherwise.
 */
export const STEP_TIMEOUT_MS = 15_000;

export interface Journey {
  /** The journey's own browser context: cookies, storage and cache of its own. */
  browser: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  problems: string[];
}

const openJourneys: Journey[] = [];

// The file's one Chromium goes when its last journey has ended.
afterAll(closeSharedBrowser);

/**
 * A low-end Android phone on a slow line, as Chrome's DevTools and Lighthouse model it: the CPU four
 * times slower (SLOW_PHONE_CPU_SLOWDOWN: a Chromium of its own whose renderers run on a quarter of a core),
 * and "slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up).
 */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

export async function startJourney(options?: {
  javaScriptEnabled?: boolean;
  slowPhone?: boolean;
  holdsScripts?: boolean;
}): Promise<Journey> {
  // A script the app's service worker answers from its cache never reaches Playwright's routes: a journey
  // that holds scripts back (holdScripts) goes without the worker, or its hold may let them through.
  const { context: browser, throttledByChrome } = await openBrowser({
    ...options,
    serviceWorkers: options?.holdsScripts ? "block" : "allow",
  });
  browser.setDefaultTimeout(STEP_TIMEOUT_MS);
  const page = await browser.newPage();
  if (options?.slowPhone) {
    const devtools = await browser.newCDPSession(page);
    if (throttledByChrome) await devtools.send("Emulation.setCPUThrottlingRate", { rate: SLOW_PHONE_CPU_SLOWDOWN });
    await devtools.send("Network.enable");
    await devtools.send("Network.emulateNetworkConditions", SLOW_4G);
  }
  const problems: string[] = [];
  page.on("console", (message) => {
    // A page answered with 4xx on purpose (403, 404, 429…) is logged by Chromium as a failed load, and a
    // room socket cut by a navigation or a busy machine logs its failure before partysocket reconnects.
    const expected = /^(Failed to load resource|WebSocket connection to .* failed)/;
    if (message.type() === "error" && !expected.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  reportIfFailed(browser);
  const journey = { browser, page, problems };
  openJourneys.push(journey);
  return journey;
}

/** How many of a journey's last requests, and of the file's last Playwright calls, a failed test prints. */
const REQUESTS_PRINTED = 30;
const CALLS_PRINTED = 20;

/**
 * Keeps what the journey's pages asked of the server, and reports the last of it with the file's last
 * Playwright calls when the test fails: a journey that stalls without a step failing by name shows
 * which call it was in and where it waited (a request still open). Downloads are the browser's, not the
 * page's: `downloadedFile` names those. The report goes to the test's output and, when `npm test` names
 * one (JOURNEY_FAILURES_FILE), to a file it prints in its summary, which is all a CI log may keep.
 */
function reportIfFailed(browser: BrowserContext) {
  const startedAtMs = Date.now();
  const seconds = (ms: number) => `${((ms - startedAtMs) / 1000).toFixed(1)} s`;
  const requests: Array<{ request: Request; at: number; ended?: string }> = [];
  browser.on("request", (request) => requests.push({ request, at: Date.now() }));
  const ended = (request: Request, how: string) => {
    const entry = requests.findLast((each) => each.request === request);
    if (entry) entry.ended = `${how} at ${seconds(Date.now())}`;
  };
  browser.on("requestfinished", (request) => {
    // With its answer's status, unless the journey's context closed first.
    void request.response().then(
      (response) => ended(request, `${response?.status() ?? "no answer"}`),
      () => ended(request, "finished"),
    );
  });
  browser.on("requestfailed", (request) => ended(request, `failed (${request.failure()?.errorText ?? "?"})`));
  onTestFailed(({ task }) => {
    // Scripts, styles and fonts that arrived say nothing; the pages and data requests do.
    const telling = requests.filter(({ request, ended }) => !(ended && new URL(request.url()).pathname.startsWith("/assets/")));
    const requestLines = telling.slice(-REQUESTS_PRINTED).map(({ request, at, ended }) => {
      const url = new URL(request.url());
      return `  ${seconds(at)} ${request.method()} ${url.pathname}${url.search}: ${ended ?? `still open at ${seconds(Date.now())}`}`;
    });
    const report = [
      `${task.file.name} > ${task.name}, started at ${new Date(startedAtMs).toISOString().slice(11, 23)}`,
      `The journey's last ${requestLines.length} requests:`,
      ...requestLines,
      `The file's last Playwright calls:`,
      ...recentPlaywrightCalls(CALLS_PRINTED).map((line) => `  ${line}`),
    ].join("\n");
    console.error(report);
    const file = process.env.JOURNEY_FAILURES_FILE;
    if (file) appendFileSync(file, `${report}\n`);
  });
}

/**
 * Ends every journey the test started (run it in afterEach): their contexts close. Every page of the app
 * is audited with axe in English and Amharic once per run, by the size-budget run (scripts/bench-size.ts),
 * and journeys check the states they reach with `expectAccessible`.
 */
export async function endJourneys(test?: TestContext) {
  const ending = openJourneys.splice(0);
  if (test?.task.result?.state === "fail") await reportWhatPagesShow(ending);
  await Promise.all(ending.map((journey) => journey.browser.close()));
}

/** What a failed journey's pages show a person as it ends: where each is, its heading, and its toasts and alerts. */
async function reportWhatPagesShow(journeys: Journey[]) {
  const lines = ["What the journey's pages showed as it ended:"];
  for (const page of journeys.flatMap((journey) => journey.browser.pages())) {
    const shown = await page
      .evaluate(() =>
        [...document.querySelectorAll("h1, dialog[open], [role=alert], [role=status]")]
          .map((element) => `${element.tagName.toLowerCase()}: ${(element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 160)}`)
          .filter((line) => !line.endsWith(": ")),
      )
      .catch((error: unknown) => [`(not readable: ${String(error).split("\n")[0]})`]);
    lines.push(`  ${page.url()}`, ...shown.map((line) => `    ${line}`));
  }
  const report = lines.join("\n");
  console.error(report);
  if (process.env.JOURNEY_FAILURES_FILE) appendFileSync(process.env.JOURNEY_FAILURES_FILE, `${report}\n`);
}

export const path = (page: Page) => new URL(page.url()).pathname;

/**
 * Where `download` was saved, once it has ended. Playwright waits for a download's end without a limit,
 * so this waits for it as a step: one that never ends fails here by name within the usual time.
 */
export async function downloadedFile(download: Download): Promise<string> {
  const saving = download.path();
  let ended = false;
  void saving.finally(() => (ended = true)).catch(() => undefined);
  await expect.poll(() => ended, { timeout: STEP_TIMEOUT_MS, message: `the download of ${download.suggestedFilename()} ended` }).toBe(true);
  return (await saving)!;
}

/**
 * How long a page may take to hydrate: a hang detector. A slow phone's page whose scripts were held took
 * more than 10 s to hydrate once they were let go, on a loaded machine.
 */
const HYDRATION_LIMIT_MS = 60_000;

// Resolves once React has hydrated the element (it carries React's props), so a click on it runs the
// app's handler instead of following the server-rendered link or form.
export async function hydrated(element: Locator) {
  await element.waitFor();
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps"))), {
      timeout: HYDRATION_LIMIT_MS,
    })
    .toBe(true);
}

/**
 * Holds the page's scripts (or those whose path matches `chunk`) until the returned function lets them
 * go: what a person does meanwhile is done to the server's HTML before hydration, as on a slow phone
 * whose scripts take seconds. For a journey started with `holdsScripts`: with the service worker on, it
 * answers scripts from its cache past the hold.
 */
export async function holdScripts(page: Page, chunk = /^\/assets\/.*\.js$/) {
  let letGo = () => undefined as void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  const scripts = (url: URL) => chunk.test(url.pathname);
  let held = 0;
  await page.route(scripts, async (route) => {
    held += 1;
    await released;
    await route.continue().catch(() => undefined);
  });
  return async () => {
    // A hold that held nothing would let the journey pass without the race it is about.
    if (held === 0) throw new Error(`No script matching ${chunk} was held: did the page load it another way?`);
    letGo();
    await page.unroute(scripts);
  };
}

/** Opens, on `page`, the newest link the dev outbox holds for `email` (emailedLink). */
export async function followEmailedLink(page: Page, email: string, origin = baseUrl) {
  await page.goto(await emailedLink(page, email, origin));
}

/**
 * The newest link the dev outbox holds for `email`, read as its page is served (no page drawn). Account
 * mail goes out just after the answer that sends it, so the outbox is read again until it shows.
 */
async function emailedLink(page: Page, email: string, origin = baseUrl): Promise<string> {
  const attributes = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, value!]));
  for (let attempt = 0; attempt < 20; attempt++) {
    const outbox = await (await page.request.get(`${origin}/dev/outbox`, { timeout: STEP_TIMEOUT_MS })).text();
    // Newest first: the first message to `email`, and the first link in it.
    const messages = outbox.split(/(?=<[^>]+data-testid="outbox-message")/).slice(1);
    const message = messages.find((part) => attributes(/^<[^>]+>/.exec(part)![0])["data-to"] === email);
    const link = message && /<a[^>]+data-testid="outbox-link"[^>]*>/.exec(message)?.[0];
    const href = link && attributes(link).href;
    if (href) return new URL(href.replaceAll("&amp;", "&"), origin).href;
    await page.waitForTimeout(250);
  }
  throw new Error(`No emailed link for ${email}`);
}

export async function signIn(page: Page, email: string, password: string, origin = baseUrl) {
  await page.goto(`${origin}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Signs `email` in on `page` as the sign-in form posts (the same action, checks and session, only the
 * form not drawn), then opens the page the sign-in led to. For journeys about what comes after signing
 * in; accounts.test.ts signs in through the form.
 */
export async function signInDirectly(page: Page, email: string, password: string, origin = baseUrl) {
  const answer = await page.request.post(`${origin}/login`, {
    headers: { Origin: origin },
    form: { email, password },
    maxRedirects: 0,
    timeout: STEP_TIMEOUT_MS,
  });
  const location = answer.headers().location;
  if (answer.status() !== 302 || !location) throw new Error(`Signing ${email} in answered ${answer.status()}`);
  await page.goto(new URL(location, origin).href);
}

export const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

export const NEW_PATIENT_PASSWORD = "Healthy-Skin-2026";

/**
 * A new patient of their own, signed in on `page` at their dashboard: registered, the emailed link
 * opened and signed in, each as its form or link sends it (no page drawn until the dashboard).
 * Journeys that send requests use one each, so the waiting cap of one journey never meets another's.
 * accounts.test.ts signs up through the pages.
 */
export async function signUpNewPatient(page: Page, firstName: string, origin = baseUrl) {
  const email = uniqueEmail(firstName.toLowerCase());
  const registered = await page.request.post(`${origin}/register?type=patient`, {
    headers: { Origin: origin },
    form: {
      firstName,
      lastName: "Tesfaye",
      email,
      password: NEW_PATIENT_PASSWORD,
      confirmPassword: NEW_PATIENT_PASSWORD,
      acceptTerms: "on",
      acceptPrivacy: "on",
    },
    maxRedirects: 0,
    timeout: STEP_TIMEOUT_MS,
  });
  if (registered.status() >= 400) throw new Error(`Sign-up answered ${registered.status()}`);
  const confirmed = await page.request.get(await emailedLink(page, email, origin), { timeout: STEP_TIMEOUT_MS });
  if (!confirmed.ok()) throw new Error(`The confirmation link answered ${confirmed.status()}`);
  await signInDirectly(page, email, NEW_PATIENT_PASSWORD, origin);
  await page.waitForURL(/\/patient\/dashboard$/);
  return email;
}

/** Answers the details step's required intake (age, sex, a body area, how long) as a person would. */
export async function fillIntake(page: Page) {
  await page.getByLabel("Age (years)").fill("34");
  await page.getByLabel("Female", { exact: true }).check();
  await page.getByLabel("Left forearm").check();
  await page.getByLabel("How many").fill("3");
  await page.getByLabel("Days, weeks, months or years").selectOption("weeks");
}

/** The intake's required answers as the details form posts them. */
const INTAKE_FORM = { ageYears: "34", sex: "female", bodyAreas: "left_forearm", durationAmount: "3", durationUnit: "weeks" };

/** Sends a request without photos from the patient signed in on `page`, as the details form posts it; resolves with where it led. */
export async function sendRequestDirectly(page: Page, chiefComplaint: string, origin = baseUrl) {
  const response = await page.request.post(`${origin}/patient/new-consultation?step=2`, {
    headers: { Origin: origin },
    form: { intent: "submit", ...INTAKE_FORM, chiefComplaint, submissionKey: crypto.randomUUID() },
    maxRedirects: 0,
    timeout: STEP_TIMEOUT_MS,
  });
  if (response.status() !== 302) throw new Error(`Submitting answered ${response.status()}`);
  return response.headers().location ?? "";
}

/** A real 1×1 PNG on disk, named `name`, for a file picker. */
export function photoOnDisk(name = "rash.png") {
  const file = join(mkdtempSync(join(tmpdir(), "qoda-photo-")), name);
  writeFileSync(
    file,
    Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC", "base64"),
  );
  return file;
}

/** The waiting requests the bell counts: its badge (absent at none) or, past the badge's cap, its list. */
export async function waitingCount(page: Page) {
  const badge = page.getByTestId("requests-count");
  if ((await badge.count()) === 0) return 0;
  const shown = (await badge.textContent()) ?? "";
  if (/^\d+$/.test(shown)) return Number(shown);
  return page.getByTestId("waiting-request").count();
}

/**
 * Holds the journey's browser's requests for the page at `pathname` until every other request it has
 * under way has its answer, as on a slow phone where the page comes last (its data has an address of
 * its own, `.data`, and is not held): the cookies then sent are the ones those answers left.
 */
export async function documentRequestsLast(browser: BrowserContext, pathname: string) {
  const underWay = new Set<Request>();
  browser.on("request", (request) => underWay.add(request));
  browser.on("requestfinished", (request) => underWay.delete(request));
  browser.on("requestfailed", (request) => underWay.delete(request));
  await browser.route(
    (url) => url.pathname === pathname,
    async (route) => {
      const others = () => [...underWay].filter((request) => request !== route.request()).length;
      await expect.poll(others, { timeout: STEP_TIMEOUT_MS, message: `the requests before ${pathname} were answered` }).toBe(0);
      await route.fallback();
    },
  );
}

/** What a journey uses of Remix's router on the page (window.__remixRouter). */
interface PageRouter {
  revalidate(): unknown;
  state: { revalidation: string };
  subscribe(listener: (state: { revalidation: string }) => void): () => void;
}

/**
 * Loads the page's data again, as a live update or a form elsewhere on the page does, and resolves
 * once the page has drawn what came back.
 */
export async function revalidated(page: Page) {
  await page.evaluate(async () => {
    const router = (window as unknown as { __remixRouter: PageRouter }).__remixRouter;
    const done = new Promise<void>((resolve) => {
      const unsubscribe = router.subscribe((state) => {
        if (state.revalidation !== "idle") return;
        unsubscribe();
        resolve();
      });
    });
    void router.revalidate();
    await done;
    await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
  });
}

/**
 * Routes `page`'s sockets to rooms of `party` through links a journey can drop: a lost link passes nothing
 * from the room to the page, not even its closing (a phone out of signal); closing it brings the
 * page's reconnect. Each link knows the page it was opened on.
 */
export async function droppableSockets(page: Page, party: string) {
  const links: Array<{ socket: WebSocketRoute; openedOn: string; lost: boolean }> = [];
  await page.routeWebSocket(new RegExp(`/parties/${party}/`), (socket) => {
    const link = { socket, openedOn: page.url(), lost: false };
    links.push(link);
    const server = socket.connectToServer();
    server.onMessage((message) => {
      if (!link.lost) socket.send(message);
    });
    server.onClose((code, reason) => {
      if (!link.lost) void socket.close({ code, reason });
    });
  });
  return links;
}
