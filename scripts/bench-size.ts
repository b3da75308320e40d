// `npm run bench:size`: what a first visit to each page downloads, measured in a real browser (Debian's
// chromium, cache off) against its own `wrangler dev` (port 8797, fresh seeded state): gzipped JS and
// CSS, the font files the page draws with, and the whole visit. Fails when a page is over its budget,
// or when a page of the app is missing from the list below. `npm test` runs it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";

import { type Browser, type BrowserContext, chromium, type Page, type Response as PageResponse } from "playwright-core";

import { CHROMIUM_PATH, ensureChromium } from "../test/e2e/chromium.ts";
import { DEMO_ACCOUNTS, DEMO_CONSULTATIONS, DEMO_PASSWORD } from "./demo-data.ts";
import { applyMigrations, build, PROJECT_ROOT, run, seedDemoData, startDevServer } from "./local-stack.ts";

const PORT = 8797;
const KB = 1024;

type Visitor = "anonymous" | "patient" | "patientWithoutConsent" | "doctor" | "admin";
/** Who signs in for each kind of visitor, and the page the sign-in lands on. */
const SIGN_INS: Record<Exclude<Visitor, "anonymous">, { email: string; landsOn: RegExp }> = {
  patient: { email: "hana@qoda.test", landsOn: /\/patient\/dashboard$/ },
  // Dawit's consent is taken back in this run's fresh data (see below), so he is asked for it.
  patientWithoutConsent: { email: "dawit@qoda.test", landsOn: /\/consent$/ },
  doctor: { email: "dr.abebe@qoda.test", landsOn: /\/doctor\/dashboard$/ },
  admin: { email: "admin@qoda.test", landsOn: /\/admin\/dashboard$/ },
};

const consultation = (status: string) => DEMO_CONSULTATIONS.find((item) => item.status === status)!.id;

/** Every page of the app (route file → an address that shows it, and who opens it). */
const PAGES: Array<{ route: string; path: string; as: Visitor }> = [
  { route: "_index", path: "/", as: "anonymous" },
  { route: "terms", path: "/terms", as: "anonymous" },
  { route: "privacy", path: "/privacy", as: "anonymous" },
  { route: "login", path: "/login", as: "anonymous" },
  { route: "register._index", path: "/register", as: "anonymous" },
  { route: "register.doctor", path: "/register/doctor", as: "anonymous" },
  { route: "feedback", path: "/feedback", as: "anonymous" },
  { route: "forgot-password", path: "/forgot-password", as: "anonymous" },
  { route: "auth.resend", path: "/auth/resend", as: "anonymous" },
  { route: "auth.confirm", path: "/auth/confirm?token=expired", as: "anonymous" },
  { route: "reset-password", path: "/reset-password?token=expired", as: "anonymous" },
  { route: "invite", path: "/invite?token=expired", as: "anonymous" },
  { route: "account-issue", path: "/account-issue", as: "anonymous" },
  { route: "access-denied", path: "/access-denied", as: "anonymous" },
  { route: "$", path: "/no-such-page", as: "anonymous" },
  { route: "dev.outbox", path: "/dev/outbox", as: "anonymous" },
  {
    route: "dev.google.authorize",
    path: "/dev/google/authorize?response_type=code&client_id=qoda-local&redirect_uri=http%3A%2F%2Flocalhost%3A8797%2Fauth%2Fgoogle%2Fcallback&code_challenge=abc&code_challenge_method=S256&state=abc",
    as: "anonymous",
  },
  { route: "consent", path: "/consent", as: "patientWithoutConsent" },
  { route: "patient", path: "/patient/dashboard", as: "patient" },
  { route: "patient.dashboard", path: "/patient/dashboard", as: "patient" },
  { route: "patient.profile", path: "/patient/profile", as: "patient" },
  { route: "patient.consultations", path: "/patient/consultations", as: "patient" },
  { route: "patient.new-consultation", path: "/patient/new-consultation", as: "patient" },
  { route: "patient.consultation.$id", path: `/patient/consultation/${consultation("in_progress")}`, as: "patient" },
  { route: "patient.payment.$id", path: `/patient/payment/${consultation("accepted_awaiting_payment")}`, as: "patient" },
  { route: "patient.feedback.$id", path: `/patient/feedback/${DEMO_CONSULTATIONS.find((item) => item.awaitsFeedback)!.id}`, as: "patient" },
  { route: "notifications", path: "/notifications", as: "patient" },
  // A static page; without a sandbox transaction of its own it shows the not-found page, with no script either way.
  { route: "dev.payments.checkout.$txRef", path: "/dev/payments/checkout/qoda-00000000-0000-4000-8000-000000000000", as: "patient" },
  { route: "doctor", path: "/doctor/dashboard", as: "doctor" },
  { route: "doctor.dashboard", path: "/doctor/dashboard", as: "doctor" },
  { route: "doctor.consultations", path: "/doctor/consultations", as: "doctor" },
  { route: "doctor.consultation.$id", path: `/doctor/consultation/${consultation("pending")}`, as: "doctor" },
  { route: "doctor.patients", path: "/doctor/patients", as: "doctor" },
  { route: "doctor.profile", path: "/doctor/profile", as: "doctor" },
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
];

/** Gzipped JS a first visit may download (issue 8): public pages least, sign-in pages next, the rest. */
function jsBudgetKb(route: string) {
  if (["_index", "terms", "privacy"].includes(route)) return 100;
  if (["login", "register._index"].includes(route)) return 120;
  return 140;
}
/** The English landing page's whole first visit: document, JS, CSS, fonts and images. */
const LANDING_TOTAL_BUDGET_KB = 180;

interface Visit {
  route: string;
  path: string;
  jsKb: number;
  cssKb: number;
  fonts: string[];
  fontsKb: number;
  totalKb: number;
}

/** Route files that render a page (a default export); resource and redirect-only routes have none. */
function pageRoutes() {
  const dir = join(PROJECT_ROOT, "app", "routes");
  return readdirSync(dir)
    .filter((file) => /\.tsx?$/.test(file) && /export default function/.test(readFileSync(join(dir, file), "utf8")))
    .map((file) => basename(file).replace(/\.tsx?$/, ""));
}

const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** The cookies of a signed-in `as`, so each measured visit can start from an empty cache yet signed in. */
async function signIn(browser: Browser, as: Visitor, baseUrl: string): Promise<StorageState | undefined> {
  if (as === "anonymous") return undefined;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(SIGN_INS[as].email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(SIGN_INS[as].landsOn);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** `--detail <route>` lists that route's scripts, each with its gzipped size. */
const DETAIL_ROUTE = process.argv.includes("--detail") ? process.argv[process.argv.indexOf("--detail") + 1] : undefined;

async function measure(page: Page, baseUrl: string, route: string, path: string): Promise<Visit> {
  const bodies: Array<Promise<{ type: string; url: string; bytes: Buffer } | null>> = [];
  const collect = (response: PageResponse) => {
    const type = response.request().resourceType();
    bodies.push(
      response.body().then(
        (bytes) => ({ type, url: response.url(), bytes }),
        () => null,
      ),
    );
  };
  page.on("response", collect);
  await page.goto(`${baseUrl}${path}`, { waitUntil: "networkidle" });
  page.off("response", collect);
  const responses = (await Promise.all(bodies)).filter((item) => item !== null);
  const gzipped = (type: string) =>
    responses.filter((item) => item.type === type).reduce((sum, item) => sum + gzipSync(item.bytes, { level: 9 }).length, 0);
  const fonts = responses.filter((item) => item.type === "font");
  const fontsBytes = fonts.reduce((sum, item) => sum + item.bytes.length, 0);
  const images = responses.filter((item) => item.type === "image").reduce((sum, item) => sum + item.bytes.length, 0);
  if (DETAIL_ROUTE === route) {
    for (const item of responses.filter((response) => response.type === "script"))
      console.log(`  ${(gzipSync(item.bytes, { level: 9 }).length / KB).toFixed(1).padStart(6)} KB  ${new URL(item.url).pathname}`);
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
  };
}

ensureChromium();
const missing = pageRoutes().filter((route) => !PAGES.some((page) => page.route === route));
const stateDir = mkdtempSync(join(tmpdir(), "qoda-size-state-"));
const problems: string[] = missing.map(
  (route) => `app/routes/${route} renders a page but is not measured: add it to PAGES in scripts/bench-size.ts`,
);
let server: Awaited<ReturnType<typeof startDevServer>> | undefined;
try {
  if (!process.argv.includes("--no-build") || !existsSync(join(PROJECT_ROOT, "build", "server", "index.js"))) await build({ quiet: true });
  await applyMigrations(stateDir, { quiet: true });
  await seedDemoData(stateDir, { quiet: true });
  await run(
    "wrangler",
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      stateDir,
      "--command",
      "UPDATE profiles SET consent_terms = 0, consent_privacy = 0 WHERE user_id = (SELECT id FROM users WHERE email = 'dawit@qoda.test')",
    ],
    { quiet: true },
  );
  server = await startDevServer({
    port: PORT,
    persistTo: stateDir,
    vars: { APP_ENV: "test", SESSION_SECRET: `${crypto.randomUUID()}${crypto.randomUUID()}` },
  });
  const baseUrl = server.url;

  const visits: Visit[] = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
  for (const as of ["anonymous", "patient", "patientWithoutConsent", "doctor", "admin"] as const) {
    const storageState = await signIn(browser, as, baseUrl);
    for (const { route, path } of PAGES.filter((item) => item.as === as)) {
      // A new context per visit: nothing cached, as for someone opening this page first.
      const context = await browser.newContext({ storageState, locale: "en-US", viewport: { width: 360, height: 780 } });
      visits.push(await measure(await context.newPage(), baseUrl, route, path));
      await context.close();
    }
  }
  await browser.close();

  const pad = (text: string, width: number) => text.padEnd(width);
  const num = (value: number) => value.toFixed(1).padStart(6);
  console.log(
    `\nFirst visit, gzipped (KB). Budgets: JS ≤ 100 landing/terms/privacy, ≤ 120 login/register, ≤ 140 others; English landing total ≤ ${LANDING_TOTAL_BUDGET_KB}.\n`,
  );
  console.log(`${pad("route", 28)} ${pad("path", 34)}     JS   CSS  fonts  total  font files`);
  for (const visit of visits) {
    const budget = jsBudgetKb(visit.route);
    const over = visit.jsKb > budget ? `  OVER (JS budget ${budget})` : "";
    console.log(
      `${pad(visit.route, 28)} ${pad(visit.path.slice(0, 33), 34)} ${num(visit.jsKb)} ${num(visit.cssKb)} ${num(visit.fontsKb)} ${num(visit.totalKb)}  ${visit.fonts.join(", ") || "-"}${over}`,
    );
    if (visit.jsKb > budget) problems.push(`${visit.route}: ${visit.jsKb.toFixed(1)} KB of JS, over its ${budget} KB budget`);
  }
  const landing = visits.find((visit) => visit.route === "_index")!;
  console.log(`\nEnglish landing page, whole first visit: ${landing.totalKb.toFixed(1)} KB (budget ${LANDING_TOTAL_BUDGET_KB} KB)`);
  if (landing.totalKb > LANDING_TOTAL_BUDGET_KB)
    problems.push(`English landing page: ${landing.totalKb.toFixed(1)} KB in all, over its ${LANDING_TOTAL_BUDGET_KB} KB budget`);
} finally {
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
}

if (problems.length) {
  console.log(`\nSize budgets: ${problems.length} problem(s)\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
  process.exit(1);
}
console.log("\nSize budgets: every page within budget.");
