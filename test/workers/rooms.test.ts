import { env, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { describe, expect, it } from "vitest";

import { consultations } from "~/db/schema";
import { PAYMENT_WINDOW_MS } from "~/domain/constants";

import type { ConsultationRoom } from "../../party/consultation";
import { createConsultation, createUser, db, ORIGIN, sessionCookieFor, signedIn } from "./fixtures";

function connect(path: string, headers: Record<string, string> = {}) {
  return SELF.fetch(`${ORIGIN}${path}`, { headers: { Upgrade: "websocket", ...headers } });
}

async function closeSocket(response: Response) {
  response.webSocket?.accept();
  response.webSocket?.close(1000, "done");
}

describe("the doctors' lobby room", () => {
  it("refuses a socket without a session", async () => {
    const response = await connect("/parties/doctors-lobby/main");
    expect(response.status).toBe(401);
    expect(response.webSocket).toBeNull();
  });

  it("refuses a forged or expired session cookie", async () => {
    const response = await connect("/parties/doctors-lobby/main", { Cookie: "__Host-qoda_session=Im5vdC1hLXNlc3Npb24i" });
    expect(response.status).toBe(401);
  });

  it("accepts a signed-in active doctor", async () => {
    const doctor = await signedIn("doctor");
    const response = await connect("/parties/doctors-lobby/main", { Cookie: doctor.cookie });
    expect(response.status).toBe(101);
    expect(response.webSocket).not.toBeNull();
    await closeSocket(response);
  });

  it("refuses patients, admins and inactive doctors", async () => {
    for (const user of [await signedIn("patient"), await signedIn("admin"), await signedIn("doctor", { doctorStatus: "inactive" })]) {
      const response = await connect("/parties/doctors-lobby/main", { Cookie: user.cookie });
      expect(response.status).toBe(403);
    }
  });

  it("refuses a handshake from another site even with a valid session", async () => {
    const doctor = await signedIn("doctor");
    const response = await connect("/parties/doctors-lobby/main", { Cookie: doctor.cookie, Origin: "https://evil.example" });
    expect(response.status).toBe(403);
  });

  it("refuses plain HTTP requests from strangers too", async () => {
    const response = await SELF.fetch(`${ORIGIN}/parties/doctors-lobby/main`);
    expect(response.status).toBe(401);
  });
});

describe("a consultation room", () => {
  it("admits only the patient and the assigned doctor", async () => {
    const patient = await signedIn("patient");
    const doctor = await signedIn("doctor");
    const stranger = await signedIn("patient");
    const otherDoctor = await signedIn("doctor");
    const consultation = await createConsultation(patient.userId, "in_progress", { doctorId: doctor.userId });
    const path = `/parties/consultation-room/${consultation.id}`;

    for (const participant of [patient, doctor]) {
      const response = await connect(path, { Cookie: participant.cookie });
      expect(response.status).toBe(101);
      await closeSocket(response);
    }
    for (const outsider of [stranger, otherDoctor]) {
      expect((await connect(path, { Cookie: outsider.cookie })).status).toBe(403);
    }
    expect((await connect(path)).status).toBe(401);
    expect((await connect(`/parties/consultation-room/${crypto.randomUUID()}`, { Cookie: patient.cookie })).status).toBe(404);
  });

  it("tells a page why it was refused when asked with a plain request (a socket refused at the door only fails)", async () => {
    const patient = await signedIn("patient");
    const doctor = await signedIn("doctor");
    const consultation = await createConsultation(patient.userId, "accepted_awaiting_payment", { doctorId: doctor.userId });
    const path = `${ORIGIN}/parties/consultation-room/${consultation.id}`;
    const ask = async (cookie?: string) => (await SELF.fetch(path, { headers: cookie ? { Cookie: cookie } : {} })).status;

    expect(await ask(patient.cookie)).toBe(204);
    expect(await ask(doctor.cookie)).toBe(204);
    // The payment window closed: the doctor no longer takes part.
    await db.update(consultations).set({ status: "pending", doctorId: null }).where(eq(consultations.id, consultation.id));
    expect(await ask(doctor.cookie)).toBe(403);
    expect(await ask(patient.cookie)).toBe(204);
    expect(await ask()).toBe(401);
  });
});

describe("the payment deadline alarm", () => {
  async function acceptedConsultation(deadline: Date) {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    return createConsultation(patientId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(deadline.getTime() - PAYMENT_WINDOW_MS),
      paymentDeadlineAt: deadline,
    });
  }

  async function roomFor(consultationId: string) {
    return getServerByName(env.ConsultationRoom, consultationId) as Promise<DurableObjectStub<ConsultationRoom>>;
  }

  it("returns an unpaid consultation to the queue when the window closes, and is safe to run twice", async () => {
    const consultation = await acceptedConsultation(new Date(Date.now() - 1_000));
    const room = await roomFor(consultation.id);
    await room.armPaymentDeadline(new Date(Date.now() + 60_000));
    expect(await room.paymentDeadline()).not.toBeNull();

    expect(await runDurableObjectAlarm(room)).toBe(true);
    const after = await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) });
    expect(after).toMatchObject({ status: "pending", doctorId: null, paymentDeadlineAt: null, acceptedAt: null });

    // At-least-once delivery: a second run finds nothing to expire and changes nothing.
    await room.armPaymentDeadline(new Date(Date.now() + 60_000));
    expect(await runDurableObjectAlarm(room)).toBe(true);
    const again = await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) });
    expect(again).toMatchObject({ status: "pending", doctorId: null });
    expect(again?.updatedAt).toEqual(after?.updatedAt);
  });

  it("re-arms itself when it fires before the deadline", async () => {
    const deadline = new Date(Date.now() + 10 * 60_000);
    const consultation = await acceptedConsultation(deadline);
    const room = await roomFor(consultation.id);
    await room.armPaymentDeadline(new Date(Date.now() + 1_000));
    await runDurableObjectAlarm(room);
    const after = await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) });
    expect(after?.status).toBe("accepted_awaiting_payment");
    const alarmAt = await runInDurableObject(room, (_instance, state) => state.storage.getAlarm());
    expect(alarmAt).toBe(deadline.getTime());
  });

  it("leaves a paid consultation alone", async () => {
    const consultation = await acceptedConsultation(new Date(Date.now() - 1_000));
    await db
      .update(consultations)
      .set({ status: "in_progress", paymentDeadlineAt: null, startedAt: new Date() })
      .where(eq(consultations.id, consultation.id));
    const room = await roomFor(consultation.id);
    await room.armPaymentDeadline(new Date(Date.now() + 60_000));
    await runDurableObjectAlarm(room);
    const after = await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) });
    expect(after?.status).toBe("in_progress");
    expect(after?.doctorId).toBe(consultation.doctorId);
  });

  it("tells the connected participants when the window closes", async () => {
    const consultation = await acceptedConsultation(new Date(Date.now() - 1_000));
    const cookie = await sessionCookieFor(consultation.patientId);
    const response = await connect(`/parties/consultation-room/${consultation.id}`, { Cookie: cookie });
    const socket = response.webSocket!;
    // The room first says where things stand, then what changes.
    const received = new Promise<string>((resolve) =>
      socket.addEventListener("message", (event) => String(event.data).includes("payment_expired") && resolve(String(event.data))),
    );
    socket.accept();
    const room = await roomFor(consultation.id);
    await room.armPaymentDeadline(new Date(Date.now() + 60_000));
    await runDurableObjectAlarm(room);
    expect(JSON.parse(await received)).toEqual({
      type: "status",
      consultationId: consultation.id,
      status: "pending",
      reason: "payment_expired",
    });
    socket.close(1000, "done");
  });
});
