// Item 2 of the attacker's findings: a live socket belongs to a session. Signing out, deactivation, a
// password change, a reset and expiry close that session's lobby and consultation sockets at once,
// and no event is sent to a connection whose session has ended.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { describe, expect, it } from "vitest";

import { doctors, roomConnections, sessions } from "~/db/schema";
import { PASSWORD_RESET_LINK_LIFETIME_MS } from "~/domain/constants";
import { sessionEndsAt } from "~/domain/session-lifetime";
import { ROOM_CLOSE_CODES } from "~/realtime/protocol";
import { setDoctorStatus } from "~/server/admin/doctor-status.server";
import { setPassword } from "~/server/auth/accounts.server";

import type { ConsultationRoom } from "../../party/consultation";
import type { DoctorsLobby } from "../../party/lobby";
import { createOneTimeLink, GOOD_PASSWORD } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, INTAKE_FORM, serverContext, sessionCookieFor, signedIn } from "./fixtures";
import { type CollectingSocket, openConsultationSocket, openLobbySocket } from "./sockets";

const SESSION_ENDED = ROOM_CLOSE_CODES.sessionEnded;

/** The close code, or "still open" if the room has not closed the socket within `withinMs` (a failure). */
function closeCodeWithin(socket: CollectingSocket<unknown>, withinMs = 2_000) {
  return Promise.race([socket.closed, new Promise<string>((resolve) => setTimeout(() => resolve("still open"), withinMs))]);
}

async function submitRequest(title: string) {
  const patient = await signedIn("patient");
  await new Visitor(patient.cookie).post("/patient/new-consultation?step=2", {
    intent: "submit",
    ...INTAKE_FORM,
    chiefComplaint: title,
    priority: "normal",
  });
}

const received = (lobby: CollectingSocket<{ type: string; request?: { title: string } }>, title: string) =>
  lobby.events.some((event) => event.type === "request_added" && event.request?.title === title);

async function lobbyRoom() {
  return getServerByName(env.DoctorsLobby, "main") as Promise<DurableObjectStub<DoctorsLobby>>;
}

describe("a doctor's lobby socket", () => {
  it("closes as soon as the doctor signs out, and the next request reaches only doctors still signed in", async () => {
    const leaving = await signedIn("doctor");
    const staying = await openLobbySocket();
    const lobby = await openLobbySocket(leaving.cookie);
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    const [leavingSession] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, leaving.userId));
    expect(await db.$count(roomConnections, eq(roomConnections.sessionId, leavingSession!.id))).toBe(1);

    const signOut = await new Visitor(leaving.cookie).post("/logout", {});
    expect(signOut.headers.get("Location")).toBe("/login");
    expect(await closeCodeWithin(lobby)).toBe(SESSION_ENDED);

    await submitRequest("After sign-out");
    await staying.until(() => received(staying, "After sign-out"));
    expect(received(lobby, "After sign-out")).toBe(false);
    // The registry forgets the closed socket, and the old cookie cannot open a new one.
    expect(await db.$count(roomConnections, eq(roomConnections.sessionId, leavingSession!.id))).toBe(0);
    await expect(openLobbySocket(leaving.cookie)).rejects.toThrow(/answered 401/);
    staying.close();
  });

  it("closes, on every session of the account, when an admin makes the doctor inactive", async () => {
    const doctorId = await createUser("doctor");
    const [phone, laptop] = [await sessionCookieFor(doctorId), await sessionCookieFor(doctorId)];
    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "in_progress", { doctorId });
    const sockets = [await openLobbySocket(phone), await openLobbySocket(laptop), await openConsultationSocket(consultation.id, laptop)];

    await setDoctorStatus(serverContext, doctorId, "inactive", new Date());
    for (const socket of sockets) expect(await closeCodeWithin(socket)).toBe(SESSION_ENDED);
    expect(await db.$count(sessions, eq(sessions.userId, doctorId))).toBe(0);
  });

  it("closes for the doctor's other sessions when the password changes, and stays open for this one", async () => {
    const doctorId = await createUser("doctor");
    await setPassword(db, doctorId, GOOD_PASSWORD, new Date());
    const [here, elsewhere] = [await sessionCookieFor(doctorId), await sessionCookieFor(doctorId)];
    const [hereSocket, elsewhereSocket] = [await openLobbySocket(here), await openLobbySocket(elsewhere)];

    const changed = await new Visitor(here).post("/doctor/profile", {
      intent: "change-password",
      currentPassword: GOOD_PASSWORD,
      newPassword: "Fresh-Skin-77",
      confirmPassword: "Fresh-Skin-77",
    });
    expect(changed.status).toBe(302);
    expect(await closeCodeWithin(elsewhereSocket)).toBe(SESSION_ENDED);
    // A request sent after the change reaches this session's socket, and the room has not closed it:
    // a close caused by the change would have arrived before this later event.
    await submitRequest("After the password change");
    await hereSocket.until(() => received(hereSocket, "After the password change"));
    expect(hereSocket.closeCode()).toBeUndefined();
    hereSocket.close();
  });

  it("is never sent an event once its session is gone, even if nobody told the room", async () => {
    const doctor = await signedIn("doctor");
    const lobby = await openLobbySocket(doctor.cookie);
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    // The row disappears behind the room's back (a lapsed session removed by housekeeping, say).
    await db.delete(sessions).where(eq(sessions.userId, doctor.userId));
    await submitRequest("Behind the room's back");
    expect(await closeCodeWithin(lobby)).toBe(SESSION_ENDED);
    expect(received(lobby, "Behind the room's back")).toBe(false);
  });

  it("is never sent an event once its doctor is inactive, even if nobody told the room", async () => {
    const doctor = await signedIn("doctor");
    const lobby = await openLobbySocket(doctor.cookie);
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    await db.update(doctors).set({ status: "inactive" }).where(eq(doctors.userId, doctor.userId));
    await submitRequest("For active doctors only");
    expect(await closeCodeWithin(lobby)).toBe(SESSION_ENDED);
    expect(received(lobby, "For active doctors only")).toBe(false);
  });

  it("is never sent an event once its session was cut short, even if nobody told the room", async () => {
    const doctor = await signedIn("doctor");
    const lobby = await openLobbySocket(doctor.cookie);
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    // The room has found this session alive and knows when it ends; the end moves earlier behind its back.
    await submitRequest("While the session lasts");
    await lobby.until(() => received(lobby, "While the session lasts"));
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(sessions.userId, doctor.userId));
    await submitRequest("After its end");
    expect(await closeCodeWithin(lobby)).toBe(SESSION_ENDED);
    expect(received(lobby, "After its end")).toBe(false);
  });

  it("keeps sending to the sessions still alive while others end, and to a session that is merely used", async () => {
    const staying = await signedIn("doctor");
    const leaving = await signedIn("doctor");
    const stayingLobby = await openLobbySocket(staying.cookie);
    const leavingLobby = await openLobbySocket(leaving.cookie);
    for (const lobby of [stayingLobby, leavingLobby]) await lobby.until((events) => events.some((event) => event.type === "queue"));
    // Being used moves a session's end later: the room need not hear of it, and keeps sending.
    await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.userId, staying.userId));
    await db.delete(sessions).where(eq(sessions.userId, leaving.userId));
    await submitRequest("For the one still here");
    await stayingLobby.until(() => received(stayingLobby, "For the one still here"));
    expect(await closeCodeWithin(leavingLobby)).toBe(SESSION_ENDED);
    expect(received(leavingLobby, "For the one still here")).toBe(false);
    expect(stayingLobby.closeCode()).toBeUndefined();
    stayingLobby.close();
  });

  it("closes when its session lapses: the room wakes at the earliest end of its sessions and checks", async () => {
    const doctor = await signedIn("doctor");
    const lobby = await openLobbySocket(doctor.cookie);
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    const room = await lobbyRoom();
    // The alarm is set for the first moment one of the room's sessions could lapse.
    const roomSessions = await db
      .select({ lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(roomConnections, eq(roomConnections.sessionId, sessions.id))
      .where(eq(roomConnections.roomClass, "DoctorsLobby"));
    const earliestEnd = Math.min(...roomSessions.map((session) => sessionEndsAt(session).getTime()));
    expect(await runInDurableObject(room, (_instance, state) => state.storage.getAlarm())).toBe(earliestEnd);

    // Time passes: the session is past its end when the alarm rings.
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(sessions.userId, doctor.userId));
    await runDurableObjectAlarm(room);
    expect(await closeCodeWithin(lobby)).toBe(SESSION_ENDED);
  });
});

describe("a consultation room socket", () => {
  it("closes for a doctor whose accepted request goes back to the queue, while the patient hears why", async () => {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patientId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(Date.now() - 16 * 60_000),
      paymentDeadlineAt: new Date(Date.now() - 60_000),
    });
    const doctorSocket = await openConsultationSocket(consultation.id, await sessionCookieFor(doctorId));
    const patientSocket = await openConsultationSocket(consultation.id, await sessionCookieFor(patientId));
    const room = (await getServerByName(env.ConsultationRoom, consultation.id)) as DurableObjectStub<ConsultationRoom>;
    await room.armPaymentDeadline(new Date(Date.now() + 60_000));
    await runDurableObjectAlarm(room);
    await patientSocket.until((events) => events.some((event) => event.reason === "payment_expired"));
    expect(await closeCodeWithin(doctorSocket)).toBe(ROOM_CLOSE_CODES.noLongerParticipant);
    expect(doctorSocket.events.some((event) => event.reason === "payment_expired")).toBe(false);
    patientSocket.close();
  });

  it("closes when the patient signs out, and when a password reset ends every session", async () => {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patientId, "in_progress", { doctorId });

    const first = await sessionCookieFor(patientId);
    const socket = await openConsultationSocket(consultation.id, first);
    await new Visitor(first).post("/logout", {});
    expect(await closeCodeWithin(socket)).toBe(SESSION_ENDED);

    const [phone, laptop] = [await sessionCookieFor(patientId), await sessionCookieFor(patientId)];
    const sockets = [await openConsultationSocket(consultation.id, phone), await openConsultationSocket(consultation.id, laptop)];
    const token = await createOneTimeLink(db, patientId, "password_reset", PASSWORD_RESET_LINK_LIFETIME_MS, new Date());
    const reset = await new Visitor().post(`/reset-password?token=${token}`, {
      token,
      password: "Brand-New-Skin-5",
      confirmPassword: "Brand-New-Skin-5",
    });
    expect(reset.headers.get("Location")).toBe("/login");
    for (const each of sockets) expect(await closeCodeWithin(each)).toBe(SESSION_ENDED);
  });
});

describe("a reconnecting page", () => {
  it("keeps receiving events on its new socket, and that socket still closes at sign-out", async () => {
    // partysocket reconnects with the same `_pk`; the old socket's close may arrive after the new one opened.
    const doctor = await signedIn("doctor");
    const first = await openLobbySocket(doctor.cookie, "?_pk=same-page");
    const second = await openLobbySocket(doctor.cookie, "?_pk=same-page");
    await second.until((events) => events.some((event) => event.type === "queue"));
    first.close();
    await first.closed;
    await submitRequest("After a reconnect");
    await second.until(() => received(second, "After a reconnect"));
    await new Visitor(doctor.cookie).post("/logout", {});
    expect(await closeCodeWithin(second)).toBe(SESSION_ENDED);
  });

  it("cannot open a lobby other than the doctors' one", async () => {
    const doctor = await signedIn("doctor");
    await expect(openLobbySocket(doctor.cookie, "", "/parties/doctors-lobby/elsewhere")).rejects.toThrow(/answered 404/);
  });
});
