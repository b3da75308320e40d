// `npm run bench:size`: what a first visit to each page downloads, measured in a real browser (Debian's
// chromium-headless-shell, cache off) against its own `wrangler dev` (port 8797 or BENCH_PORT, fresh seeded state):
// gzipped JS and CSS, the font files the page draws with, and the whole visit (and the Amharic landing
// page's whole visit on a phone without an Ethiopic font). Each page is then audited
// with axe in English and in Amharic (the run's one accessibility audit of every page). Fails when a page
// is over its budget, has a serious or critical violation, could not be measured (it answered with
// another page), or is missing from the list below. `npm test` runs it with `--no-build`, on the state
// it seeded (QODA_SEEDED_STATE), and `--report <file>` for its summary.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";

import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
  type Request as PageRequest,
  type Response as PageResponse,
} from "playwright-core";

import { auditInBothLanguages } from "../test/support/accessibility.ts";
import { ensureChromium, LAUNCH_ARGS, launchWithoutEthiopicFonts, TEST_CHROMIUM_PATH } from "../test/support/chromium.ts";
import { DEMO_ACCOUNTS, DEMO_CONSULTATIONS, DEMO_PASSWORD, demoConsultationIn } from "../test/support/demo-data.ts";
import {
  benchPort,
  build,
  copyState,
  PROJECT_ROOT,
  queryLocalD1,
  SEEDED_STATE_VARIABLE,
  seededState,
  startDevServer,
} from "../test/support/local-stack.ts";

const PORT = benchPort(8797);
/** Where `--report <file>` writes what was measured and audited, for `npm test`'s summary. */
const REPORT_PATH = process.argv.includes("--report") ? process.argv[process.argv.indexOf("--report") + 1] : undefined;
const KB = 1024;
const VISITS_AT_ONCE = 3;

type Visitor = "anonymous" | "patient" | "patientWithoutConsent" | "payer" | "doctor" | "admin";
/** Who signs in for each kind of visitor, and the page the sign-in lands on. */
const SIGN_INS: Record<Exclude<Visitor, "anonymous" | "payer">, { email: string; landsOn: RegExp }> = {
  patient: { email: "hana@qoda.test", landsOn: /\/patient\/dashboard$/ },
  // Dawit's consent is taken back in this run's fresh data (see below), so he is asked for it.
  patientWithoutConsent: { email: "dawit@qoda.test", landsOn: /\/consent$/ },
  doctor: { email: "dr.abebe@qoda.test", landsOn: /\/doctor\/dashboard$/ },
  admin: { email: "admin@qoda.test", landsOn: /\/admin\/dashboard$/ },
};

const consultation = (status: string) => demoConsultationIn(status).id;

/** Every page of the app (route file → an address that shows it, and who opens it). */
const PAGES: Array<{ route: string; path: string; as: Visitor; /** The page's own status, when not 200. */ status?: number }> = [
  { route: "_index", path: "/", as: "anonymous" },
  { route: "terms", path: "/terms", as: "anonymous" },
  { route: "privacy", path: "/privacy", as: "anonymous" },
  { route: "login", path: "/login", as: "anonymous" },
  { route: "register._index", path: "/register", as: "anonymous" },
  { route: "register.doctor", path: "/register/doctor", as: "anonymous" },
  { route: "feedback", path: "/feedback", as: "anonymous" },
  { route: "forgot-password", path: "/forgot-password", as: "anonymous" },
  { route: "sign-in-link", path: "/sign-in-link", as: "anonymous" },
  { route: "auth.resend", path: "/auth/resend", as: "anonymous" },
  { route: "auth.confirm", path: "/auth/confirm?token=expired", as: "anonymous", status: 400 },
  { route: "reset-password", path: "/reset-password?token=expired", as: "anonymous", status: 400 },
  { route: "invite", path: "/invite?token=expired", as: "anonymous", status: 400 },
  { route: "account-issue", path: "/account-issue", as: "anonymous" },
  { route: "access-denied", path: "/access-denied", as: "anonymous", status: 403 },
  { route: "$", path: "/no-such-page", as: "anonymous", status: 404 },
  { route: "dev.outbox", path: "/dev/outbox", as: "anonymous" },
  { route: "dev.telegram.start", path: "/dev/telegram/start?start=abc", as: "anonymous" },
  { route: "dev.payments._index", path: "/dev/payments", as: "anonymous" },
  {
    route: "dev.google.authorize",
    path: `/dev/google/authorize?response_type=code&client_id=qoda-local&redirect_uri=http%3A%2F%2Flocalhost%3A${PORT}%2Fauth%2Fgoogle%2Fcallback&code_challenge=abc&code_challenge_method=S256&state=abc`,
    as: "anonymous",
  },
  { route: "consent", path: "/consent", as: "patientWithoutConsent" },
  { route: "patient", path: "/patient/dashboard", as: "patient" },
  { route: "patient.dashboard", path: "/patient/dashboard", as: "patient" },
  { route: "patient.profile", path: "/patient/profile", as: "patient" },
  { route: "patient.profile_.telegram", path: "/patient/profile/telegram", as: "patient" },
  { route: "patient.consultations", path: "/patient/consultations", as: "patient" },
  { route: "patient.new-consultation", path: "/patient/new-consultation", as: "patient" },
  { route: "patient.consultation.$id", path: `/patient/consultation/${consultation("in_progress")}`, as: "patient" },
  // The consultation waiting for payment is Dawit's: he pays once he has given his consent back (below).
  { route: "patient.payment.$id", path: `/patient/payment/${consultation("accepted_awaiting_payment")}`, as: "payer" },
  { route: "patient.feedback.$id", path: `/patient/feedback/${DEMO_CONSULTATIONS.find((item) => item.awaitsFeedback)!.id}`, as: "patient" },
  {
    route: "patient.payment.$id_.receipt",
    path: `/patient/payment/${consultation("completed").replace("-9000-", "-a000-")}/receipt`,
    as: "patient",
  },
  { route: "notifications", path: "/notifications", as: "patient" },
  { route: "patient.consultation.$id_.summary", path: `/patient/consultation/${consultation("completed")}/summary?both=1`, as: "patient" },
  // A static page; without a sandbox transaction of its own it shows the not-found page, with no script either way.
  {
    route: "dev.payments.checkout.$txRef",
    path: "/dev/payments/checkout/qoda-00000000-0000-4000-8000-000000000000",
    as: "patient",
    status: 404,
  },
  { route: "doctor", path: "/doctor/dashboard", as: "doctor" },
  { route: "doctor.dashboard", path: "/doctor/dashboard", as: "doctor" },
  { route: "doctor.consultations", path: "/doctor/consultations", as: "doctor" },
  { route: "doctor.consultation.$id", path: `/doctor/consultation/${consultation("pending")}`, as: "doctor" },
  { route: "doctor.consultation.$id", path: `/doctor/consultation/${consultation("in_progress")}`, as: "doctor" },
  { route: "doctor.patients", path: "/doctor/patients", as: "doctor" },
  { route: "doctor.earnings", path: "/doctor/earnings", as: "doctor" },
  { route: "doctor.consultation.$id_.summary", path: `/doctor/consultation/${consultation("completed")}/summary`, as: "doctor" },
  { route: "doctor.profile", path: "/doctor/profile", as: "doctor" },
  { route: "doctor.profile_.payout", path: "/doctor/profile/payout", as: "doctor" },
  { route: "doctor.profile_.telegram", path: "/doctor/profile/telegram", as: "doctor" },
  { route: "doctor.profile_.card", path: "/doctor/profile/card", as: "doctor" },
  { route: "doctor.thank-you", path: "/doctor/thank-you", as: "doctor" },
  { route: "consultation.$id.accept", path: `/consultation/${consultation("pending")}/accept`, as: "doctor" },
  { route: "admin", path: "/admin/dashboard", as: "admin" },
  { route: "admin.dashboard", path: "/admin/dashboard", as: "admin" },
  { route: "admin.profile", path: "/admin/profile", as: "admin" },
  { route: "admin.doctors._index", path: "/admin/doctors", as: "admin" },
  { route: "admin.doctors.$id", path: `/admin/doctors/${DEMO_ACCOUNTS.find((account) => account.role === "doctor")!.id}`, as: "admin" },
  { route: "admin.patients", path: "/admin/patients", as: "admin" },
  { route: "admin.overview", path: "/admin/overview", as: "admin" },
  { route: "admin.feedbacks", path: "/admin/feedbacks", as: "admin" },
  { route: "admin.audit", path: "/admin/audit", as: "admin" },
  { route: "admin.payments", path: "/admin/payments", as: "admin" },
  { route: "admin.consultations.$id", path: `/admin/consultations/${consultation("completed")}`, as: "admin" },
  { route: "admin.doctor-registrations", path: "/admin/doctor-registrations", as: "admin" },
  { route: "admin.messages", path: "/admin/messages", as: "admin" },
  { route: "admin.mail", path: "/admin/mail", as: "admin" },
  { route: "admin.finance._index", path: "/admin/finance", as: "admin" },
  { route: "admin.finance.disputes", path: "/admin/finance/disputes", as: "admin" },
  { route: "admin.finance.reconciliation", path: "/admin/finance/reconciliation", as: "admin" },
  // Without an opening (a reason given first), the summary says so: the page measured is that one.
  {
    route: "admin.consultations.$id_.summary",
    path: `/admin/consultations/${consultation("completed")}/summary`,
    as: "admin",
    status: 403,
  },
];

/** Gzipped JS a first visit may download (issue 8): public pages least, sign-in pages next, the rest. */
function jsBudgetKb(route: string) {
  if (["_index", "terms", "privacy"].includes(route)) return 100;
  if (["login", "register._index"].includes(route)) return 120;
  return 140;
}
/** The English landing page's whole first visit: document, JS, CSS, fonts and images. */
const LANDING_TOTAL_BUDGET_KB = 180;
/** The Amharic landing page's whole first visit, on a phone without an Ethiopic font of its own (issue 18). */
const AMHARIC_LANDING_TOTAL_BUDGET_KB = 80;

interface Visit {
  route: string;
  path: string;
  jsKb: number;
  cssKb: number;
  fonts: string[];
  fontsKb: number;
  totalKb: number;
  /** The document's status and the path the browser ended on (another path means a redirect). */
  status: number;
  landedOn: string;
}

/** Route files that render a page (a default export); resource and redirect-only routes have none. */
function pageRoutes() {
  const dir = join(PROJECT_ROOT, "app", "routes");
  return readdirSync(dir)
    .filter((file) => /\.tsx?$/.test(file) && /export default function/.test(readFileSync(join(dir, file), "utf8")))
    .map((file) => basename(file).replace(/\.tsx?$/, ""));
}

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/**
 * The cookies of a signed-in `as`, so each measured visit can start from an empty cache yet signed in.
 * A sign-in that has not landed after 30 s is tried once more, after printing where it stood and what
 * was still loading: such a stall has been seen a few times, never reproduced alone (45 sign-ins in a
 * row landed within 3 s each), and this is setup, not a measurement.
 */
async function signIn(browser: Browser, as: Exclude<Visitor, "payer">, baseUrl: string, attempt = 1): Promise<StorageState | undefined> {
  if (as === "anonymous") return undefined;
  const context = await browser.newContext();
  const page = await context.newPage();
  const loading = new Map<string, number>();
  page.on("request", (request) => loading.set(`${request.method()} ${request.url()}`, Date.now()));
  const settled = (request: PageRequest) => loading.delete(`${request.method()} ${request.url()}`);
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(SIGN_INS[as].email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  try {
    await page.waitForURL(SIGN_INS[as].landsOn, { timeout: 30_000 });
  } catch (error) {
    const stillLoading = [...loading].map(([request, since]) => `${request} (${Date.now() - since} ms)`).join(", ") || "nothing";
    const slowAnswers = server?.slowRequests(5_000).join("; ") || "none";
    console.error(
      `Signing in as ${as} did not land in 30 s (attempt ${attempt}): on ${page.url()}; still loading: ${stillLoading}; answered after 5 s or more: ${slowAnswers}`,
    );
    await context.close();
    if (attempt > 1) throw error;
    return signIn(browser, as, baseUrl, attempt + 1);
  }
  const state = await context.storageState();
  await context.close();
  return state;
}

/** A patient asked for their consent ticks both boxes and continues: the session that then pays. */
async function giveConsent(browser: Browser, state: StorageState | undefined, baseUrl: string): Promise<StorageState> {
  const context = await browser.newContext({ storageState: state });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/consent`);
  for (const box of await page.getByRole("checkbox").all()) await box.check();
  await page.getByRole("button", { name: "Continue" }).press("Enter");
  await page.waitForURL(/\/patient\/dashboard$/);
  const consented = await context.storageState();
  await context.close();
  return consented;
}

const BUILT_CLIENT = join(PROJECT_ROOT, "build", "client");
const builtFiles = new Map<string, Buffer | undefined>();

/** The file of the build that `url` serves as it is (a script, a style, a font, an icon), or undefined. */
function builtFile(url: string): Buffer | undefined {
  const { pathname } = new URL(url);
  if (!/\.\w+$/.test(pathname) || pathname.includes("..")) return undefined;
  if (!builtFiles.has(pathname)) {
    const path = join(BUILT_CLIENT, decodeURIComponent(pathname));
    builtFiles.set(pathname, existsSync(path) ? readFileSync(path) : undefined);
  }
  return builtFiles.get(pathname);
}

const gzippedSizes = new WeakMap<Buffer, number>();

/** Bytes over the wire with gzip at its best; once per file of the build, which every page shares. */
function gzippedBytes(bytes: Buffer): number {
  let size = gzippedSizes.get(bytes);
  if (size === undefined) gzippedSizes.set(bytes, (size = gzipSync(bytes, { level: 9 }).length));
  return size;
}

/** `--detail <route>` lists that route's scripts, each with its gzipped size. */
const DETAIL_ROUTE = process.argv.includes("--detail") ? process.argv[process.argv.indexOf("--detail") + 1] : undefined;

async function measure(page: Page, baseUrl: string, route: string, path: string): Promise<Visit> {
  const bodies: Array<Promise<{ type: string; url: string; bytes: Buffer } | null>> = [];
  const collect = (response: PageResponse) => {
    const type = response.request().resourceType();
    const url = response.url();
    // The build's own files are read from disk, as served, rather than copied out of the browser for
    // every page that loads them; the rest (documents, photos) as the browser received them.
    const file = response.status() === 200 ? builtFile(url) : undefined;
    const body = file ? Promise.resolve(file) : response.body();
    bodies.push(
      body.then(
        (bytes) => ({ type, url, bytes }),
        () => null,
      ),
    );
  };
  page.on("response", collect);
  const document = await page.goto(`${baseUrl}${path}`, { waitUntil: "networkidle" });
  page.off("response", collect);
  const responses = (await Promise.all(bodies)).filter((item) => item !== null);
  const gzipped = (type: string) => responses.filter((item) => item.type === type).reduce((sum, item) => sum + gzippedBytes(item.bytes), 0);
  const fonts = responses.filter((item) => item.type === "font");
  const fontsBytes = fonts.reduce((sum, item) => sum + item.bytes.length, 0);
  const images = responses.filter((item) => item.type === "image").reduce((sum, item) => sum + item.bytes.length, 0);
  if (DETAIL_ROUTE === route) {
    for (const item of responses.filter((response) => response.type === "script"))
      console.log(`  ${(gzippedBytes(item.bytes) / KB).toFixed(1).padStart(6)} KB  ${new URL(item.url).pathname}`);
  }
  const js = gzipped("script");
  const css = gzipped("stylesheet");
  return {
    route,
    path,
    jsKb: js / KB,
    cssKb: css / KB,
    fonts: fonts.map((font) => basename(new URL(font.url).pathname).replace(/-[\w-]{8}\.woff2?$/, "")),
    fontsKb: fontsBytes / KB,
    totalKb: (gzipped("document") + js + css + fontsBytes + images) / KB,
    status: document?.status() ?? 0,
    landedOn: new URL(page.url()).pathname,
  };
}

ensureChromium();
const missing = pageRoutes().filter((route) => !PAGES.some((page) => page.route === route));
const sizeProblems: string[] = missing.map(
  (route) => `app/routes/${route} renders a page but is not measured: add it to PAGES in scripts/bench-size.ts`,
);
const auditProblems: string[] = [];
let audited = 0;
const seeded = process.env[SEEDED_STATE_VARIABLE];
let stateDir: string | undefined;
let server: Awaited<ReturnType<typeof startDevServer>> | undefined;
try {
  if (!process.argv.includes("--no-build") || !existsSync(join(PROJECT_ROOT, "build", "server", "index.js"))) await build({ quiet: true });
  stateDir = seeded ? await copyState(seeded, "qoda-size-state-") : await seededState();
  await queryLocalD1(
    stateDir,
    "UPDATE profiles SET consent_terms = 0, consent_privacy = 0 WHERE user_id = (SELECT id FROM users WHERE email = 'dawit@qoda.test')",
  );
  server = await startDevServer({
    port: PORT,
    persistTo: stateDir,
    vars: { APP_ENV: "test", SESSION_SECRET: `${crypto.randomUUID()}${crypto.randomUUID()}` },
  });
  const baseUrl = server.url;

  const visits: Visit[] = [];
  const auditedAddresses = new Set<string>();
  const browser = await chromium.launch({ executablePath: TEST_CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
  const storageStates = new Map<Visitor, StorageState | undefined>();
  for (const as of ["anonymous", "patient", "patientWithoutConsent", "doctor", "admin"] as const)
    storageStates.set(as, await signIn(browser, as, baseUrl));
  const visitPage = async (index: number) => {
    const { route, path, as } = PAGES[index]!;
    // A new context per visit: nothing cached, as for someone opening this page first.
    const context = await browser.newContext({
      storageState: storageStates.get(as),
      locale: "en-US",
      viewport: { width: 360, height: 780 },
    });
    const page = await context.newPage();
    const visit = await measure(page, baseUrl, route, path);
    visits[index] = visit;
    const asked = new URL(`${baseUrl}${path}`).pathname;
    // An answer other than the page's own (an error, a redirect elsewhere) would measure another page.
    if (visit.landedOn !== asked || visit.status !== (PAGES[index]!.status ?? 200))
      sizeProblems.push(`${route}: not measured, ${path} answered ${visit.status} and showed ${visit.landedOn}`);
    // The same visit, still open in English, is audited, then again in Amharic (once per address and reader).
    else if (!auditedAddresses.has(`${as} ${path}`)) {
      auditedAddresses.add(`${as} ${path}`);
      auditProblems.push(...(await auditInBothLanguages(page)));
      audited += 1;
    }
    await context.close();
  };
  // The consent page first, while Dawit is asked for his consent; then he gives it back, as a patient
  // would, and pays (the consultation waiting for payment is his).
  const askedForConsent = (index: number) => PAGES[index]!.as === "patientWithoutConsent";
  const indexes = PAGES.map((_, index) => index);
  for (const index of indexes.filter(askedForConsent)) await visitPage(index);
  storageStates.set("payer", await giveConsent(browser, storageStates.get("patientWithoutConsent"), baseUrl));
  // Then a few visits at a time: each mostly waits for the network to go quiet, and sizes do not depend on timing.
  const waiting = indexes.filter((index) => !askedForConsent(index));
  const visitor = async () => {
    for (let index = waiting.shift(); index !== undefined; index = waiting.shift()) await visitPage(index);
  };
  await Promise.all(Array.from({ length: VISITS_AT_ONCE }, visitor));
  await browser.close();

  // An Amharic reader's first visit to the landing page (the phone asks for Amharic), on a phone with no
  // Ethiopic font of its own: the worst case, where the page's own Ethiopic font is downloaded.
  const amharicBrowser = await launchWithoutEthiopicFonts();
  const amharicContext = await amharicBrowser.newContext({ locale: "am-ET", viewport: { width: 360, height: 780 } });
  const amharicPage = await amharicContext.newPage();
  const amharicLanding = await measure(amharicPage, baseUrl, "_index", "/");
  const amharicLanguage = await amharicPage.getAttribute("html", "lang");
  await amharicBrowser.close();

  const pad = (text: string, width: number) => text.padEnd(width);
  const num = (value: number) => value.toFixed(1).padStart(6);
  console.log(
    `\nFirst visit, gzipped (KB). Budgets: JS ≤ 100 landing/terms/privacy, ≤ 120 login/register, ≤ 140 others; English landing total ≤ ${LANDING_TOTAL_BUDGET_KB}, Amharic landing total ≤ ${AMHARIC_LANDING_TOTAL_BUDGET_KB}.\n`,
  );
  console.log(`${pad("route", 28)} ${pad("path", 34)}     JS   CSS  fonts  total  font files`);
  for (const visit of visits) {
    const budget = jsBudgetKb(visit.route);
    const over = visit.jsKb > budget ? `  OVER (JS budget ${budget})` : "";
    console.log(
      `${pad(visit.route, 28)} ${pad(visit.path.slice(0, 33), 34)} ${num(visit.jsKb)} ${num(visit.cssKb)} ${num(visit.fontsKb)} ${num(visit.totalKb)}  ${visit.fonts.join(", ") || "-"}${over}`,
    );
    if (visit.jsKb > budget) sizeProblems.push(`${visit.route}: ${visit.jsKb.toFixed(1)} KB of JS, over its ${budget} KB budget`);
  }
  const landing = visits.find((visit) => visit.route === "_index")!;
  console.log(`\nEnglish landing page, whole first visit: ${landing.totalKb.toFixed(1)} KB (budget ${LANDING_TOTAL_BUDGET_KB} KB)`);
  if (landing.totalKb > LANDING_TOTAL_BUDGET_KB)
    sizeProblems.push(`English landing page: ${landing.totalKb.toFixed(1)} KB in all, over its ${LANDING_TOTAL_BUDGET_KB} KB budget`);
  console.log(
    `Amharic landing page, whole first visit without an Ethiopic font on the phone: ${amharicLanding.totalKb.toFixed(1)} KB` +
      ` (budget ${AMHARIC_LANDING_TOTAL_BUDGET_KB} KB; JS ${amharicLanding.jsKb.toFixed(1)}, CSS ${amharicLanding.cssKb.toFixed(1)},` +
      ` fonts ${amharicLanding.fontsKb.toFixed(1)}: ${amharicLanding.fonts.join(", ") || "-"})`,
  );
  if (amharicLanguage !== "am") sizeProblems.push(`Amharic landing page: not measured, the page answered in ${amharicLanguage}`);
  else if (amharicLanding.totalKb > AMHARIC_LANDING_TOTAL_BUDGET_KB)
    sizeProblems.push(
      `Amharic landing page: ${amharicLanding.totalKb.toFixed(1)} KB in all, over its ${AMHARIC_LANDING_TOTAL_BUDGET_KB} KB budget`,
    );
} catch (error) {
  sizeProblems.push(`the run stopped: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await server?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}

const listed = (problems: string[]) => problems.map((problem) => `- ${problem}`).join("\n");
console.log(
  sizeProblems.length
    ? `\nSize budgets: ${sizeProblems.length} problem(s)\n${listed(sizeProblems)}`
    : "\nSize budgets: every page measured and within budget.",
);
console.log(
  auditProblems.length || audited === 0
    ? `\nAccessibility (${audited} pages audited in English and Amharic): ${auditProblems.length} violation(s)\n${listed(auditProblems)}`
    : `\nAccessibility: ${audited} pages audited in English and Amharic, no serious or critical violation.`,
);
if (REPORT_PATH) writeFileSync(REPORT_PATH, JSON.stringify({ sizeProblems, auditProblems, audited }));
process.exit(sizeProblems.length || auditProblems.length || audited === 0 ? 1 : 0);
