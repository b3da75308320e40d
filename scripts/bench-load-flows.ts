// What the virtual users of `npm run bench:load` do, over HTTP as a browser without JavaScript would:
// read dashboards and lists, and take a consultation through its life (submit, accept, pay in the
// sandbox, chat both ways, end, release). Every request is timed under its action's name; any answer
// other than the expected one, and any network failure, is an error of that action with a sample.
import { randomUUID } from "node:crypto";

export type Account = { id: string; cookie: string };

/** Longer than any answer should take even on a busy machine; a request past it is a failure, and the run stays bounded. */
const REQUEST_TIMEOUT_MS = 60_000;

/** What the run saw of each action, and what it did, for the checks afterwards. */
export class LoadRecord {
  readonly latenciesMs = new Map<string, number[]>();
  readonly errors = new Map<string, { count: number; sample: string }>();
  /** Titles submitted (answered with a redirect to the new request), with their consultation. */
  readonly submitted = new Map<string, string>();
  /** Consultation → the doctor whose accept was answered 200. */
  readonly accepted = new Map<string, string>();
  readonly paid = new Set<string>();
  readonly released = new Set<string>();
  /** Consultation → the texts sent in its chat (each unique), and its doctor, who reads them back. */
  readonly messages = new Map<string, { doctor: Account; texts: string[] }>();

  time(action: string, ms: number) {
    const list = this.latenciesMs.get(action) ?? [];
    list.push(ms);
    this.latenciesMs.set(action, list);
  }

  fail(action: string, sample: string) {
    const seen = this.errors.get(action);
    this.errors.set(action, { count: (seen?.count ?? 0) + 1, sample: seen?.sample ?? sample });
  }
}

/** A failed step: already counted, it ends the lifecycle it was part of. */
class StepFailed extends Error {}

export class LoadClient {
  readonly origin: string;
  readonly record: LoadRecord;

  constructor(origin: string, record: LoadRecord) {
    this.origin = origin;
    this.record = record;
  }

  /** One timed request; the response when its status is one of `expected`, else an error counted (and thrown). */
  async request(action: string, as: Account, path: string, expected: number[], form?: Record<string, string>) {
    const startedAt = performance.now();
    let response: Response;
    let body: string;
    try {
      response = await fetch(`${this.origin}${path}`, {
        method: form ? "POST" : "GET",
        redirect: "manual",
        headers: {
          Cookie: as.cookie,
          ...(form ? { Origin: this.origin, "Content-Type": "application/x-www-form-urlencoded" } : {}),
        },
        body: form ? new URLSearchParams(form) : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      body = await response.text();
    } catch (error) {
      this.record.fail(action, `${path}: ${String(error)}`);
      throw new StepFailed(action);
    }
    this.record.time(action, performance.now() - startedAt);
    if (!expected.includes(response.status)) {
      this.record.fail(action, `${path} answered ${response.status}: ${body.replace(/\s+/g, " ").slice(0, 200)}`);
      throw new StepFailed(action);
    }
    return { status: response.status, location: response.headers.get("Location") ?? "", body };
  }

  /** A step whose answer is right in status but wrong in substance (a redirect to the wrong page). */
  wrong(action: string, sample: string): never {
    this.record.fail(action, sample);
    throw new StepFailed(action);
  }
}

/** The reads a user makes: for each action, who reads and what. */
export const READS = {
  "GET /health": { as: "patient", path: "/health" },
  "GET /patient/dashboard": { as: "patient", path: "/patient/dashboard" },
  "GET /patient/consultations": { as: "patient", path: "/patient/consultations" },
  "GET /doctor/dashboard": { as: "doctor", path: "/doctor/dashboard" },
  "GET /doctor/consultations": { as: "doctor", path: "/doctor/consultations" },
} as const;

export async function read(client: LoadClient, action: keyof typeof READS, people: { patient: Account; doctor: Account }) {
  const { as, path } = READS[action];
  await client.request(action, people[as], path, [200]).catch(ignoreCountedFailure);
}

function ignoreCountedFailure(error: unknown) {
  if (!(error instanceof StepFailed)) throw error;
}

const INTAKE = { priority: "normal", ageYears: "34", sex: "female", bodyAreas: "left_forearm", durationAmount: "3", durationUnit: "weeks" };

/**
 * The request form sent twice at once, as a double tap sends it (with the form's one submission key):
 * both answers lead to the same new request.
 */
async function submit(client: LoadClient, patient: Account, title: string) {
  const form = { intent: "submit", submissionKey: randomUUID(), chiefComplaint: title, ...INTAKE };
  const answers = await twice(() => client.request("submit request", patient, "/patient/new-consultation?step=2", [302], form));
  const [id, again] = answers.map(({ location }) => new URL(location, client.origin).searchParams.get("id"));
  if (!id || id !== again)
    client.wrong("submit request", `a double submit led to ${answers.map((answer) => answer.location).join(" and ")}`);
  client.record.submitted.set(title, id);
  return id;
}

/** The same step twice at once. */
const twice = <Result>(step: () => Promise<Result>) => Promise.all([step(), step()]);

/**
 * Two doctors accept the same request at once (as two doctors seeing it in the lobby would): one is
 * answered 200, the other 409 (taken). Both 200, or neither, is an error.
 */
async function acceptRacing(client: LoadClient, id: string, doctors: [Account, Account]) {
  const answers = await Promise.all(
    doctors.map((doctor) =>
      client
        .request("accept request", doctor, `/doctor/consultation/${id}`, [200, 409], { intent: "accept" })
        .then((answer) => ({ doctor, status: answer.status })),
    ),
  );
  const winners = answers.filter((answer) => answer.status === 200);
  if (winners.length !== 1) client.wrong("accept request", `${id}: ${winners.length} of 2 racing accepts answered 200`);
  client.record.accepted.set(id, winners[0]!.doctor.id);
  return winners[0]!.doctor;
}

/**
 * One try at the sandbox checkout: the pay form (its txRef), Pay tapped twice (one payment: both lead to
 * the same checkout), the sandbox's Pay or Fail, and back from it twice at once (a reload: both confirm
 * through the one path). Paid: back on the consultation; failed: back on the payment page.
 */
async function checkout(client: LoadClient, patient: Account, id: string, outcome: "pay" | "fail") {
  const page = await client.request("GET payment page", patient, `/patient/payment/${id}`, [200]);
  const txRef = /name="txRef"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="txRef"/.exec(page.body);
  if (!txRef) client.wrong("GET payment page", `${id}: no txRef in the form`);
  const form = { intent: "pay", txRef: txRef[1] ?? txRef[2]! };
  const started = await twice(() => client.request("start payment", patient, `/patient/payment/${id}`, [302], form));
  const [checkoutPath, again] = started.map(({ location }) => new URL(location, client.origin).pathname);
  if (checkoutPath !== again) client.wrong("start payment", `${id}: a double tap led to ${checkoutPath} and ${again}`);
  const settled = await client.request(`sandbox checkout (${outcome})`, patient, checkoutPath!, [302], { outcome });
  const returnPath = new URL(settled.location).pathname;
  const expected = outcome === "pay" ? `/patient/consultation/${id}` : `/patient/payment/${id}`;
  for (const back of await twice(() => client.request(`return from checkout (${outcome})`, patient, returnPath, [302])))
    if (!back.location.startsWith(expected)) client.wrong(`return from checkout (${outcome})`, `${id}: sent to ${back.location}`);
}

/** Paid in the sandbox; one time in three after a failed try (a card declined), paid with a new form. */
async function pay(client: LoadClient, patient: Account, id: string) {
  if (Math.random() < 1 / 3) await checkout(client, patient, id, "fail");
  await checkout(client, patient, id, "pay");
  client.record.paid.add(id);
}

async function chat(client: LoadClient, id: string, people: { patient: Account; doctor: Account }, messagesEach: number) {
  const sent: string[] = [];
  client.record.messages.set(id, { doctor: people.doctor, texts: sent });
  for (let index = 0; index < messagesEach; index++) {
    for (const role of ["patient", "doctor"] as const) {
      const text = `Load message ${randomUUID()} from the ${role}`;
      const path = `/${role}/consultation/${id}`;
      const answer = await client.request(`chat (${role})`, people[role], path, [302], { intent: "send-message", text });
      if (answer.location !== path) client.wrong(`chat (${role})`, `${id}: sent to ${answer.location}`);
      sent.push(text);
    }
  }
}

async function end(client: LoadClient, doctor: Account, id: string) {
  const form = {
    intent: "end-consultation",
    observations: "Dry, scaly patches on the forearm.",
    diagnosis: "Contact dermatitis",
    treatmentPlan: "Avoid the irritant; a mild steroid cream twice a day for a week.",
  };
  await client.request("end consultation", doctor, `/doctor/consultation/${id}`, [302], form);
}

/** "My consultation is complete", tapped twice at once: released once. */
async function release(client: LoadClient, patient: Account, id: string) {
  await twice(() => client.request("release escrow", patient, `/patient/consultation/${id}`, [302], { intent: "confirm-complete" }));
  client.record.released.add(id);
}

/** A request from submission to release; a failed step ends it (the failure counted). */
export async function lifecycle(client: LoadClient, patient: Account, doctors: [Account, Account], title: string) {
  try {
    const id = await submit(client, patient, title);
    const doctor = await acceptRacing(client, id, doctors);
    await pay(client, patient, id);
    await chat(client, id, { patient, doctor }, 2);
    await end(client, doctor, id);
    await release(client, patient, id);
  } catch (error) {
    ignoreCountedFailure(error);
  }
}

/** The admin's payout run ("Run payouts now" on the finance page). */
export async function payoutRun(client: LoadClient, admin: Account) {
  await client.request("run payouts", admin, "/admin/finance", [302], { intent: "run-payouts" }).catch(ignoreCountedFailure);
}
