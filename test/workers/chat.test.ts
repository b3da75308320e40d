// The consultation chat (issue 9): the room keeps the messages in its own storage, only the patient and
// the assigned doctor take part, texts come over the socket and are checked there, photos are uploaded
// and travel as messages, a reconnecting page catches up, and the pages work without JavaScript.
import { env, runInDurableObject } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { describe, expect, it, vi } from "vitest";

import { consultationFiles, consultations, patientFeedback } from "~/db/schema";
import { MAX_CHAT_MESSAGE_CHARS, MAX_CHAT_MESSAGES_PER_MINUTE } from "~/domain/constants";
import type { ConsultationStatus } from "~/domain/consultation-status";
import type { ChatMessage, ConsultationRoomEvent } from "~/realtime/protocol";

import { ChatLog } from "../../party/chat-log";
import { type ConsultationRoom, TRUSTED_READ_MS } from "../../party/consultation";
import { Visitor } from "./browser-like";
import { createConsultation, db, ORIGIN, signedIn } from "./fixtures";
import { EXE_BYTES, largeJpeg, photoFile, PNG_BYTES } from "./photos";
import { openChatSocket } from "./sockets";

type ChatSocket = Awaited<ReturnType<typeof openChatSocket>>;

const MINUTE_MS = 60_000;
/** Enough to read every message a test stores. */
const EVERY_MESSAGE = 10_000;

/** A patient and a doctor, signed in, and a consultation between them in `status`. */
async function consultationBetween(status: ConsultationStatus = "in_progress") {
  const patient = await signedIn("patient");
  const doctor = await signedIn("doctor");
  const now = Date.now();
  const consultation = await createConsultation(patient.userId, status, {
    doctorId: doctor.userId,
    acceptedAt: new Date(now - 30 * MINUTE_MS),
    paymentDeadlineAt: status === "accepted_awaiting_payment" ? new Date(now + 10 * MINUTE_MS) : null,
    startedAt: status === "in_progress" || status === "completed" ? new Date(now - 20 * MINUTE_MS) : null,
    completedAt: status === "completed" ? new Date(now - MINUTE_MS) : null,
  });
  return { patient, doctor, consultation };
}

const messagesIn = (events: ConsultationRoomEvent[]): ChatMessage[] =>
  events.flatMap((event) => (event.type === "message" ? [event.message] : []));
const historiesIn = (events: ConsultationRoomEvent[]) => events.flatMap((event) => (event.type === "history" ? [event.messages] : []));
const refusalsIn = (events: ConsultationRoomEvent[]) => events.flatMap((event) => (event.type === "send_refused" ? [event] : []));
const presenceIn = (events: ConsultationRoomEvent[]) => events.flatMap((event) => (event.type === "presence" ? [event.online] : []));

function roomOf(consultationId: string) {
  return getServerByName(env.ConsultationRoom, consultationId) as Promise<DurableObjectStub<ConsultationRoom>>;
}

/** Opens a socket and waits for its welcome (the status first, then the history when there is a chat). */
async function joined(consultationId: string, cookie: string, { history = true } = {}) {
  const socket = await openChatSocket(consultationId, cookie);
  await socket.until((events) => (history ? historiesIn(events).length > 0 : events.some((event) => event.type === "status")));
  return socket;
}

/** Sends a text and resolves with what the room answered the sender: the stored message, or the refusal. */
async function say(socket: ChatSocket, text: string) {
  const clientId = crypto.randomUUID();
  socket.send({ type: "send", clientId, text });
  await socket.until((events) =>
    events.some((event) => (event.type === "message" || event.type === "send_refused") && event.clientId === clientId),
  );
  return socket.events.find((event) => (event.type === "message" || event.type === "send_refused") && event.clientId === clientId)!;
}

function connect(consultationId: string, cookie: string) {
  return new Visitor(cookie).fetch(`/parties/consultation-room/${consultationId}`, { headers: { Upgrade: "websocket" } });
}

describe("the consultation room's chat", () => {
  it("sends a participant the status and the whole history on connect", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    const room = await roomOf(consultation.id);
    await room.postMessage({ senderId: patient.userId, kind: "text", text: "Hello doctor", fileId: null });
    await room.postMessage({ senderId: doctor.userId, kind: "text", text: "Hello, how can I help?", fileId: null });

    const socket = await joined(consultation.id, doctor.cookie);
    expect(socket.events[0]).toEqual({ type: "status", consultationId: consultation.id, status: "in_progress" });
    expect(historiesIn(socket.events)[0]!.map((message) => [message.senderRole, message.text])).toEqual([
      ["patient", "Hello doctor"],
      ["doctor", "Hello, how can I help?"],
    ]);
    socket.close();
  });

  it("keeps messages in the order they were sent, each with its sender and time, for both people", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    const patientSocket = await joined(consultation.id, patient.cookie);
    const doctorSocket = await joined(consultation.id, doctor.cookie);
    const before = Date.now();
    const texts = Array.from({ length: 8 }, (_, index) => `Message ${index + 1}`);
    // Sent without waiting for each other: the room takes them one at a time, in order.
    for (const [index, text] of texts.entries())
      (index % 2 ? doctorSocket : patientSocket).send({ type: "send", clientId: crypto.randomUUID(), text });
    for (const socket of [patientSocket, doctorSocket]) await socket.until((events) => messagesIn(events).length === texts.length);

    for (const socket of [patientSocket, doctorSocket]) {
      const received = messagesIn(socket.events);
      expect(received.map((message) => message.text).sort()).toEqual([...texts].sort());
      expect(received.map((message) => message.id)).toEqual([...received.map((message) => message.id)].sort((a, b) => a - b));
      for (const message of received) {
        expect(message.senderRole).toBe(Number(message.text.split(" ")[1]) % 2 ? "patient" : "doctor");
        expect(message.sentAt).toBeGreaterThanOrEqual(before);
        expect(message.sentAt).toBeLessThanOrEqual(Date.now());
      }
    }
    // Each person's own messages keep their order.
    const patientTexts = messagesIn(doctorSocket.events)
      .filter((message) => message.senderRole === "patient")
      .map((message) => message.text);
    expect(patientTexts).toEqual(["Message 1", "Message 3", "Message 5", "Message 7"]);
    // A later connection gets the same history.
    const late = await joined(consultation.id, patient.cookie);
    expect(historiesIn(late.events)[0]).toEqual(messagesIn(doctorSocket.events));
    for (const socket of [patientSocket, doctorSocket, late]) socket.close();
  });

  it("stores a text sent again with the same page id once: the sender hears it arrived, the other person gets it once", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    const doctorSocket = await joined(consultation.id, doctor.cookie);
    const first = await joined(consultation.id, patient.cookie);
    const clientId = crypto.randomUUID();
    first.send({ type: "send", clientId, text: "Typed on the bus" });
    await first.until((events) => messagesIn(events).length === 1);
    // The connection dropped before the page saw the echo: the page sends it again over a new socket.
    first.close();
    const second = await joined(consultation.id, patient.cookie);
    second.send({ type: "send", clientId, text: "Typed on the bus" });
    await second.until((events) => events.some((event) => event.type === "message" && event.clientId === clientId));
    const echo = messagesIn(second.events).at(-1)!;
    expect(echo).toEqual(messagesIn(first.events)[0]);
    // Another person's text with the same page id is a text of its own.
    doctorSocket.send({ type: "send", clientId, text: "Thanks" });
    await doctorSocket.until((events) => messagesIn(events).some((message) => message.text === "Thanks"));
    const late = await joined(consultation.id, doctor.cookie);
    expect(historiesIn(late.events)[0]!.map((message) => message.text)).toEqual(["Typed on the bus", "Thanks"]);
    expect(messagesIn(doctorSocket.events).map((message) => message.text)).toEqual(["Typed on the bus", "Thanks"]);
    for (const socket of [doctorSocket, second, late]) socket.close();
  });

  it("refuses a third person's socket, and a participant's socket to another consultation (403)", async () => {
    const { patient, consultation } = await consultationBetween();
    const other = await consultationBetween();
    const stranger = await signedIn("patient");
    const otherDoctor = await signedIn("doctor");
    const admin = await signedIn("admin");
    for (const outsider of [stranger, otherDoctor, admin, other.patient, other.doctor]) {
      const response = await connect(consultation.id, outsider.cookie);
      expect(response.status).toBe(403);
      expect(response.webSocket).toBeNull();
    }
    expect((await connect(other.consultation.id, patient.cookie)).status).toBe(403);
  });

  it("drops malformed messages and keeps the socket open", async () => {
    const { patient, consultation } = await consultationBetween();
    const socket = await joined(consultation.id, patient.cookie);
    for (const junk of [
      "not json",
      "{",
      JSON.stringify({ type: "send" }),
      JSON.stringify({ type: "send", clientId: crypto.randomUUID(), text: 42 }),
      JSON.stringify({ type: "send", clientId: "not-a-uuid", text: "Hi" }),
      JSON.stringify({ type: "shout", text: "Hi" }),
      JSON.stringify({ type: "catch_up", afterId: "zero" }),
      JSON.stringify(["send", "Hi"]),
    ])
      socket.send(junk);
    const answer = await say(socket, "Still here");
    expect(answer.type).toBe("message");
    expect(messagesIn(socket.events).map((message) => message.text)).toEqual(["Still here"]);
    expect(refusalsIn(socket.events)).toEqual([]);
    expect(socket.socket.readyState).toBe(WebSocket.OPEN);
    const stored = await (await roomOf(consultation.id)).chatSnapshot(EVERY_MESSAGE);
    expect(stored.messages.map((message) => message.text)).toEqual(["Still here"]);
    socket.close();
  });

  it("stores no empty text, cleans hidden characters, and refuses over 4,000 characters, telling the sender", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    const socket = await joined(consultation.id, patient.cookie);
    const doctorSocket = await joined(consultation.id, doctor.cookie);
    for (const empty of ["", "   ", "\n\t \u200b"])
      expect(await say(socket, empty)).toMatchObject({ type: "send_refused", reason: "empty" });
    const tooLong = "a".repeat(MAX_CHAT_MESSAGE_CHARS + 1);
    expect(await say(socket, tooLong)).toMatchObject({ type: "send_refused", reason: "too_long" });
    const longest = await say(socket, "b".repeat(MAX_CHAT_MESSAGE_CHARS));
    expect(longest.type === "message" && longest.message.text.length).toBe(MAX_CHAT_MESSAGE_CHARS);
    const cleaned = await say(socket, "  \u202eevil\u202c text\u0007  ");
    expect(cleaned.type === "message" && cleaned.message.text).toBe("evil text");

    await doctorSocket.until((events) => messagesIn(events).length === 2);
    // Refusals go to the sender alone.
    expect(refusalsIn(doctorSocket.events)).toEqual([]);
    const stored = await (await roomOf(consultation.id)).chatSnapshot(EVERY_MESSAGE);
    expect(stored.messages.map((message) => message.text.length)).toEqual([MAX_CHAT_MESSAGE_CHARS, "evil text".length]);
    socket.close();
    doctorSocket.close();
  });

  it("refuses a flood from one person past 30 messages a minute, telling them, while the other still sends", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    const socket = await joined(consultation.id, patient.cookie);
    for (let index = 1; index <= MAX_CHAT_MESSAGES_PER_MINUTE; index++)
      expect((await say(socket, `Message ${index}`)).type).toBe("message");
    expect(await say(socket, "One too many")).toMatchObject({ type: "send_refused", reason: "too_fast" });
    // The server's way in (a form without JavaScript) counts against the same person.
    const room = await roomOf(consultation.id);
    expect(await room.postMessage({ senderId: patient.userId, kind: "text", text: "By form", fileId: null })).toEqual({
      ok: false,
      reason: "too_fast",
    });
    const form = await new Visitor(patient.cookie).post(`/patient/consultation/${consultation.id}`, {
      intent: "send-message",
      text: "By form",
    });
    expect(form.status).toBe(429);
    expect(await form.text()).toContain("You are sending messages very quickly.");
    expect((await room.postMessage({ senderId: doctor.userId, kind: "text", text: "Doctor here", fileId: null })).ok).toBe(true);
    expect((await room.chatSnapshot(EVERY_MESSAGE)).messages).toHaveLength(MAX_CHAT_MESSAGES_PER_MINUTE + 1);
    socket.close();
  });

  it("refuses sending before payment and after completion, and at once when the room is told the chat ended", async () => {
    for (const status of ["accepted_awaiting_payment", "completed"] as const) {
      const { patient, doctor, consultation } = await consultationBetween(status);
      for (const person of [patient, doctor]) {
        const socket = await joined(consultation.id, person.cookie, { history: status === "completed" });
        expect(await say(socket, "Can we talk?"), status).toMatchObject({ type: "send_refused", reason: "not_in_progress" });
        socket.close();
      }
      const room = await roomOf(consultation.id);
      expect(await room.postMessage({ senderId: patient.userId, kind: "text", text: "Hi", fileId: null })).toEqual({
        ok: false,
        reason: "not_in_progress",
      });
      expect((await room.chatSnapshot(EVERY_MESSAGE)).messages).toEqual([]);
    }

    // The consultation ends while both are connected: the next message is refused, and the end is heard live.
    const { patient, doctor, consultation } = await consultationBetween();
    const socket = await joined(consultation.id, patient.cookie);
    const doctorSocket = await joined(consultation.id, doctor.cookie);
    expect((await say(socket, "Before the end")).type).toBe("message");
    await db.update(consultations).set({ status: "completed", completedAt: new Date() }).where(eq(consultations.id, consultation.id));
    await (await roomOf(consultation.id)).announce({ type: "status", consultationId: consultation.id, status: "completed" });
    for (const each of [socket, doctorSocket])
      await each.until((events) => events.some((event) => event.type === "status" && event.status === "completed"));
    expect(await say(socket, "After the end")).toMatchObject({ type: "send_refused", reason: "not_in_progress" });
    expect(await say(doctorSocket, "After the end")).toMatchObject({ type: "send_refused", reason: "not_in_progress" });
    socket.close();
    doctorSocket.close();
  });

  it("hears of a change nobody told the room within ten seconds: after that a message is refused", async () => {
    const { patient, consultation } = await consultationBetween();
    const socket = await joined(consultation.id, patient.cookie);
    expect((await say(socket, "Before the end")).type).toBe("message");
    // Ended behind the room's back (as if the Worker that wrote it died before telling the room).
    await db.update(consultations).set({ status: "completed", completedAt: new Date() }).where(eq(consultations.id, consultation.id));
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + TRUSTED_READ_MS);
      expect(await say(socket, "Ten seconds on")).toMatchObject({ type: "send_refused", reason: "not_in_progress" });
    } finally {
      vi.useRealTimers();
    }
    expect((await (await roomOf(consultation.id)).chatSnapshot(EVERY_MESSAGE)).messages.map((message) => message.text)).toEqual([
      "Before the end",
    ]);
    socket.close();
  });

  it("trusts no read that was under way when the room was told of a change", async () => {
    const { consultation } = await consultationBetween();
    // Inside the room: D1's answer must arrive between the news and the next message, which no socket can time.
    type RoomInside = {
      consultationRead(): Promise<unknown>;
      forgetLastRead(): void;
      trustedRead(): Promise<{ consultation?: { status: ConsultationStatus } }>;
    };
    await runInDurableObject(await roomOf(consultation.id), async (room) => {
      const inside = room as unknown as RoomInside;
      const underWay = inside.consultationRead();
      inside.forgetLastRead();
      await underWay;
      await db.update(consultations).set({ status: "completed", completedAt: new Date() }).where(eq(consultations.id, consultation.id));
      expect((await inside.trustedRead()).consultation?.status).toBe("completed");
    });
  });

  it("gives a page that reconnects only what it missed since its last message", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    const doctorSocket = await joined(consultation.id, doctor.cookie);
    const first = await say(doctorSocket, "Before you left");
    const patientSocket = await joined(consultation.id, patient.cookie);
    patientSocket.close();
    for (const text of ["While you were away", "And one more"]) await say(doctorSocket, text);

    const back = await joined(consultation.id, patient.cookie);
    back.send({ type: "catch_up", afterId: first.type === "message" ? first.message.id : -1 });
    await back.until((events) => historiesIn(events).length === 2);
    expect(historiesIn(back.events)[1]!.map((message) => message.text)).toEqual(["While you were away", "And one more"]);
    back.send({ type: "catch_up", afterId: historiesIn(back.events)[0]!.at(-1)!.id });
    await back.until((events) => historiesIn(events).length === 3);
    expect(historiesIn(back.events)[2]).toEqual([]);
    back.close();
    doctorSocket.close();
  });

  it("tells the patient when the doctor comes online and goes offline", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    const patientSocket = await joined(consultation.id, patient.cookie);
    await patientSocket.until((events) => presenceIn(events).length > 0);
    expect(presenceIn(patientSocket.events).at(-1)).toEqual(["patient"]);

    const doctorSocket = await joined(consultation.id, doctor.cookie);
    await patientSocket.until((events) => presenceIn(events).at(-1)?.includes("doctor") === true);
    expect(presenceIn(patientSocket.events).at(-1)).toEqual(["patient", "doctor"]);
    // The page rendered now says so too.
    expect(await (await new Visitor(patient.cookie).get(`/patient/consultation/${consultation.id}`)).text()).toContain(">Online<");

    doctorSocket.close();
    await patientSocket.until((events) => presenceIn(events).at(-1)?.length === 1);
    expect(presenceIn(patientSocket.events).at(-1)).toEqual(["patient"]);
    expect(await (await new Visitor(patient.cookie).get(`/patient/consultation/${consultation.id}`)).text()).toContain(">Offline<");
    patientSocket.close();
  });

  it("takes messages from the server only for the consultation's two people", async () => {
    const { consultation } = await consultationBetween();
    const stranger = await signedIn("patient");
    expect(
      await (await roomOf(consultation.id)).postMessage({ senderId: stranger.userId, kind: "text", text: "Hi", fileId: null }),
    ).toEqual({
      ok: false,
      reason: "not_participant",
    });
  });
});

/** `count` texts ("Message 1"…), stored straight in the room a minute apart (past its rate limit, as over a long consultation). */
async function longChat(consultationId: string, parties: { patientId: string; doctorId: string }, count: number) {
  const room = await roomOf(consultationId);
  await room.postMessage({ senderId: parties.patientId, kind: "text", text: "Message 1", fileId: null });
  await runInDurableObject(room, (_instance, state) => {
    const log = new ChatLog(state.storage.sql);
    for (let number = 2; number <= count; number++) {
      const senderRole = number % 2 ? "patient" : "doctor";
      const senderId = senderRole === "patient" ? parties.patientId : parties.doctorId;
      log.append(
        { senderId, senderRole, kind: "text", text: `Message ${number}`, fileId: null },
        new Date(Date.now() + number * MINUTE_MS),
      );
    }
  });
}

/** The numbers of the messages a page shows, in order. */
const shownNumbers = (html: string) => [...html.matchAll(/>Message (\d+)</g)].map((match) => Number(match[1]));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe("a long chat", () => {
  it("opens at its newest 50 messages, with a link to a page with 50 more, until the first one", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    await longChat(consultation.id, { patientId: patient.userId, doctorId: doctor.userId }, 120);
    const { messages } = await (await roomOf(consultation.id)).chatSnapshot(EVERY_MESSAGE);
    const idOf = (number: number) => messages[number - 1]!.id;
    const path = `/patient/consultation/${consultation.id}`;
    const visitor = new Visitor(patient.cookie);

    const newest = await (await visitor.get(path)).text();
    expect(shownNumbers(newest)).toEqual(range(71, 120));
    // The link keeps the reader where they were: at the message that was the oldest shown.
    expect(newest).toContain(`href="${path}?messages=100#message-${idOf(71)}">Show earlier messages</a>`);
    expect(newest).toContain(`id="message-${idOf(71)}"`);

    const more = await (await visitor.get(`${path}?messages=100`)).text();
    expect(shownNumbers(more)).toEqual(range(21, 120));
    expect(more).toContain(`href="${path}?messages=150#message-${idOf(21)}"`);
    const all = await (await visitor.get(`${path}?messages=150`)).text();
    expect(shownNumbers(all)).toEqual(range(1, 120));
    expect(all).not.toContain(">Show earlier messages</a>");

    // The doctor's page pages the same way, in Amharic too.
    const doctorVisitor = new Visitor(doctor.cookie);
    await doctorVisitor.get("/?lng=am");
    const doctorPage = await (await doctorVisitor.get(`/doctor/consultation/${consultation.id}`)).text();
    expect(shownNumbers(doctorPage)).toEqual(range(71, 120));
    expect(doctorPage).toContain(`?messages=100#message-${idOf(71)}">ቀደም ያሉ መልዕክቶችን ይመልከቱ</a>`);

    // An admin's read-only record, once opened with a reason, pages it the same way.
    const admin = new Visitor((await signedIn("admin")).cookie);
    const record = `/admin/consultations/${consultation.id}`;
    await admin.post(record, { reason: "Dispute about the advice" });
    const recordPage = await (await admin.get(`${record}?messages=100`)).text();
    expect(shownNumbers(recordPage)).toEqual(range(21, 120));
    expect(recordPage).toContain(`href="${record}?messages=150#message-${idOf(21)}">Show earlier messages</a>`);

    // A live page gets the same newest page over its socket.
    const socket = await joined(consultation.id, patient.cookie);
    expect(historiesIn(socket.events)[0]!.map((message) => message.text)).toEqual(range(71, 120).map((number) => `Message ${number}`));
    socket.close();
  });

  it("reads a strange ?messages= as the nearest sensible page, never an error", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    await longChat(consultation.id, { patientId: patient.userId, doctorId: doctor.userId }, 60);
    const visitor = new Visitor(patient.cookie);
    const path = `/patient/consultation/${consultation.id}`;
    for (const [asked, first] of [
      ["abc", 11],
      ["-5", 11],
      ["0", 11],
      ["51", 1],
      ["99999999999", 11],
      ["1e9", 11],
    ] as const) {
      const response = await visitor.get(`${path}?messages=${asked}`);
      expect(response.status, asked).toBe(200);
      expect(shownNumbers(await response.text())[0], asked).toBe(first);
    }
  });
});

describe("the chat without JavaScript", () => {
  it("shows the whole history on the page and sends a message by a form that comes back to the page", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    await (
      await roomOf(consultation.id)
    ).postMessage({ senderId: doctor.userId, kind: "text", text: "Please send a photo.", fileId: null });
    const visitor = new Visitor(patient.cookie);
    const path = `/patient/consultation/${consultation.id}`;
    const page = await (await visitor.get(path)).text();
    expect(page).toContain("Please send a photo.");
    expect(page).toContain("Dr. Test");
    expect(page).toContain('name="intent" value="send-message"');

    const sent = await visitor.post(path, { intent: "send-message", text: "  Here is my answer  " });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(path);
    const { html } = await visitor.follow(sent);
    expect(html).toContain("Here is my answer");

    // The doctor's page shows both, the patient's under their name, and the doctor answers the same way.
    const doctorVisitor = new Visitor(doctor.cookie);
    const doctorPath = `/doctor/consultation/${consultation.id}`;
    const doctorPage = await (await doctorVisitor.get(doctorPath)).text();
    expect(doctorPage).toContain("Here is my answer");
    expect(doctorPage).toContain("Test patient");
    const answered = await doctorVisitor.post(doctorPath, { intent: "send-message", text: "Thank you." });
    expect(answered.headers.get("Location")).toBe(doctorPath);
    const stored = await (await roomOf(consultation.id)).chatSnapshot(EVERY_MESSAGE);
    expect(stored.messages.map((message) => [message.senderRole, message.text])).toEqual([
      ["doctor", "Please send a photo."],
      ["patient", "Here is my answer"],
      ["doctor", "Thank you."],
    ]);
  });

  it("keeps what was typed and says why when a message is not sent (4xx, never 500)", async () => {
    const { patient, consultation } = await consultationBetween();
    const visitor = new Visitor(patient.cookie);
    const path = `/patient/consultation/${consultation.id}`;
    const tooLong = `${"x".repeat(MAX_CHAT_MESSAGE_CHARS)}yz`;
    const refused = await visitor.post(path, { intent: "send-message", text: tooLong });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("A message can have at most 4,000 characters.");
    expect(html).toContain(`${tooLong}</textarea>`);
    const empty = await visitor.post(path, { intent: "send-message", text: "   " });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please write a message or choose a photo first.");
    // In Amharic for an Amharic reader.
    const amharic = await visitor.post(`${path}?lng=am`, { intent: "send-message", text: tooLong });
    expect(amharic.status).toBe(400);
    expect(await amharic.text()).toContain("መልዕክት ቢበዛ 4,000 ቁምፊዎች ሊኖሩት ይችላል።");
    expect((await (await roomOf(consultation.id)).chatSnapshot(EVERY_MESSAGE)).messages).toEqual([]);
  });

  it("refuses the form when the consultation is not in progress, and strangers get 404", async () => {
    const { patient, consultation } = await consultationBetween("completed");
    // Rated already (a completed consultation without feedback sends its patient to the feedback page first).
    await db.insert(patientFeedback).values({ consultationId: consultation.id, patientId: patient.userId, rating: 5 });
    const path = `/patient/consultation/${consultation.id}`;
    const refused = await new Visitor(patient.cookie).post(path, { intent: "send-message", text: "Hello?" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This consultation has ended.");

    const open = await consultationBetween();
    const stranger = await signedIn("patient");
    const otherDoctor = await signedIn("doctor");
    expect(
      (await new Visitor(stranger.cookie).post(`/patient/consultation/${open.consultation.id}`, { intent: "send-message", text: "Hi" }))
        .status,
    ).toBe(404);
    expect(
      (await new Visitor(otherDoctor.cookie).post(`/doctor/consultation/${open.consultation.id}`, { intent: "send-message", text: "Hi" }))
        .status,
    ).toBe(404);
    expect((await (await roomOf(open.consultation.id)).chatSnapshot(EVERY_MESSAGE)).messages).toEqual([]);
  });

  it("sends a photo with the form, and the words after it", async () => {
    const { patient, consultation } = await consultationBetween();
    const form = new FormData();
    form.append("intent", "send-message");
    form.append("text", "This is the rash");
    form.append("image", photoFile(PNG_BYTES, "rash.png"));
    const path = `/patient/consultation/${consultation.id}`;
    const sent = await new Visitor(patient.cookie).postMultipart(path, form);
    expect(sent.headers.get("Location")).toBe(path);
    const { messages } = await (await roomOf(consultation.id)).chatSnapshot(EVERY_MESSAGE);
    expect(messages.map((message) => [message.fileId !== null, message.text])).toEqual([
      [true, ""],
      [false, "This is the rash"],
    ]);
  });
});

describe("photos in the chat", () => {
  async function upload(cookie: string, consultationId: string, file: File) {
    const form = new FormData();
    form.append("image", file);
    const response = await new Visitor(cookie).postMultipart(`/consultation/${consultationId}/chat-image`, form);
    return { status: response.status, body: (await response.json()) as { error: string | null } };
  }

  const chatFilesOf = (consultationId: string) =>
    db
      .select()
      .from(consultationFiles)
      .where(and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.kind, "chat_image")));

  it("accepts a PNG (by its bytes), which reaches both pages as a photo message only they can open", async () => {
    const { patient, doctor, consultation } = await consultationBetween();
    const doctorSocket = await joined(consultation.id, doctor.cookie);
    // Named as a JPEG, typed as text: its bytes say PNG.
    expect(await upload(patient.cookie, consultation.id, photoFile(PNG_BYTES, "rash.jpg", "text/plain"))).toEqual({
      status: 200,
      body: { error: null },
    });
    await doctorSocket.until((events) => messagesIn(events).length === 1);
    const [message] = messagesIn(doctorSocket.events);
    expect(message).toMatchObject({ senderRole: "patient", text: "" });
    const [file] = await chatFilesOf(consultation.id);
    expect(file).toMatchObject({ id: message!.fileId, uploaderId: patient.userId, contentType: "image/png" });

    for (const person of [patient, doctor]) {
      const response = await new Visitor(person.cookie).get(`/files/${message!.fileId}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/png");
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG_BYTES);
    }
    const strangers = [await signedIn("patient"), await signedIn("doctor"), await signedIn("admin")];
    for (const stranger of strangers) expect((await new Visitor(stranger.cookie).get(`/files/${message!.fileId}`)).status).toBe(404);
    doctorSocket.close();
  });

  it("refuses a file that is not a photo whatever its name, and one over 5 MB, storing nothing", async () => {
    const { patient, consultation } = await consultationBetween();
    const impostor = await upload(patient.cookie, consultation.id, photoFile(EXE_BYTES, "holiday.png"));
    expect(impostor).toEqual({ status: 422, body: { error: "The file is not a JPG, PNG or WebP photo." } });
    const big = await upload(patient.cookie, consultation.id, largeJpeg(5 * 1024 * 1024 + 1, "big.jpg"));
    expect(big).toEqual({ status: 413, body: { error: "The photo is larger than 5 MB." } });
    const huge = await upload(patient.cookie, consultation.id, largeJpeg(6 * 1024 * 1024, "huge.jpg"));
    expect(huge.status).toBe(413);
    expect(await chatFilesOf(consultation.id)).toEqual([]);
    expect((await env.FILES.list({ prefix: `consultations/${consultation.id}/` })).objects).toEqual([]);
    expect((await (await roomOf(consultation.id)).chatSnapshot(EVERY_MESSAGE)).messages).toEqual([]);
  });

  it("is refused before payment and for anyone but the two people, storing nothing", async () => {
    const waiting = await consultationBetween("accepted_awaiting_payment");
    expect(await upload(waiting.patient.cookie, waiting.consultation.id, photoFile(PNG_BYTES, "early.png"))).toEqual({
      status: 409,
      body: { error: "Messages can be sent only while the consultation is in progress." },
    });
    const { consultation } = await consultationBetween();
    for (const outsider of [await signedIn("patient"), await signedIn("doctor")]) {
      const form = new FormData();
      form.append("image", photoFile(PNG_BYTES, "theirs.png"));
      expect((await new Visitor(outsider.cookie).postMultipart(`/consultation/${consultation.id}/chat-image`, form)).status).toBe(404);
    }
    const anonymous = await new Visitor().postMultipart(`/consultation/${consultation.id}/chat-image`, new FormData());
    expect(anonymous.headers.get("Location")).toMatch(/^\/login\?redirect=/);
    for (const id of [waiting.consultation.id, consultation.id]) expect(await chatFilesOf(id)).toEqual([]);
  });

  it("refuses an upload from another site", async () => {
    const { patient, consultation } = await consultationBetween();
    const form = new FormData();
    form.append("image", photoFile(PNG_BYTES, "rash.png"));
    const response = await new Visitor(patient.cookie).fetch(`${ORIGIN}/consultation/${consultation.id}/chat-image`, {
      method: "POST",
      body: form,
      headers: { Origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
    expect(await chatFilesOf(consultation.id)).toEqual([]);
  });
});
