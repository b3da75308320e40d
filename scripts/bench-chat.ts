// `npm run bench:chat`: how fast a chat message reaches the other person, with many chats at once.
// Starts its own `wrangler dev` on port 8897 (or BENCH_PORT) with fresh local state, seeds 100 in-progress
// consultations (a patient and a doctor each, with sessions), connects both people of each by
// WebSocket, and lets every pair talk at once: each message goes one way, and the next leaves once it
// has arrived (after a short pause, as people type). Prints p50 and p99 of the time from send to the
// other side receiving it, and how many messages never arrived (which must be 0).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type WebSocket from "ws";

import { benchAccount, printLatencies, serveSeeded, socketWithCookie } from "../test/support/bench-stack.ts";
import { consultationSql, type DemoConsultation } from "../test/support/demo-data.ts";
import { benchPort } from "../test/support/local-stack.ts";

const PORT = benchPort(8897);
const CONSULTATIONS = Number(process.env.BENCH_CONSULTATIONS ?? 100);
/** Messages each consultation exchanges (alternately from the patient and the doctor). */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);
/**
 * The pause before each message, in ms on average (half of it fixed, the rest random, so the chats do
 * not march in step): a message a second in every chat at once, far more than people type.
 */
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 1000);
/** A message not received within this long counts as lost. */
const LOST_AFTER_MS = 10_000;

type Role = "patient" | "doctor";
interface RoomEvent {
  type: string;
  message?: { senderRole: Role; text: string };
}

/** A consultation under way between the two: submitted, accepted and paid, through the state machine. */
function consultationRow(id: string, patientId: string, doctorId: string, now: number) {
  const moves: DemoConsultation["moves"] = [
    ["submit", 0],
    ["accept", 0],
    ["confirmPayment", 0],
  ];
  return consultationSql({ id, patientId, doctorId, moves, priority: "normal", mainConcern: "Bench chat", minutesAgo: 0 }, now).sql;
}

/** A participant's socket, resolved once the room has sent the history; `onText` hears the other person's texts. */
function joinChat(url: string, cookie: string, role: Role, onText: (text: string, at: number) => void) {
  return new Promise<WebSocket>((resolve, reject) => {
    const socket = socketWithCookie(url, cookie);
    socket.addEventListener("message", (event) => {
      const received = JSON.parse(String(event.data)) as RoomEvent;
      if (received.type === "history") resolve(socket);
      if (received.type === "message" && received.message && received.message.senderRole !== role)
        onText(received.message.text, performance.now());
    });
    socket.addEventListener("error", () => reject(new Error(`${role} socket failed`)));
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// BENCH_STATE_ROOT=/dev/shm keeps the local state in memory, to see the app without this disk's fsyncs.
const stateDir = mkdtempSync(join(process.env.BENCH_STATE_ROOT ?? tmpdir(), "qoda-bench-chat-"));
let stop: (() => Promise<void>) | undefined;
try {
  // Sessions count as active for an hour from now, so the run is not cut short by the idle timeout.
  const now = Date.now();
  const pairs = Array.from({ length: CONSULTATIONS }, (_, index) => ({
    consultationId: randomUUID(),
    patient: benchAccount("patient", index, now),
    doctor: benchAccount("doctor", index, now),
  }));
  const server = await serveSeeded(
    PORT,
    stateDir,
    pairs.flatMap(({ consultationId, patient, doctor }) => [
      ...patient.statements,
      ...doctor.statements,
      consultationRow(consultationId, patient.id, doctor.id, now),
    ]),
  );
  stop = server.stop;

  // When each text was sent, and a way to hear that it arrived.
  const arrivals = new Map<string, (at: number) => void>();
  const hear = (text: string, at: number) => arrivals.get(text)?.(at);
  const chats = await Promise.all(
    pairs.map(async ({ consultationId, patient, doctor }) => {
      const url = `ws://localhost:${PORT}/parties/consultation-room/${consultationId}`;
      return {
        patient: await joinChat(url, patient.cookie, "patient", hear),
        doctor: await joinChat(url, doctor.cookie, "doctor", hear),
      };
    }),
  );
  console.log(`${chats.length * 2} sockets connected to ${chats.length} consultation rooms.`);

  const latenciesMs: number[] = [];
  let lost = 0;
  const startedAt = performance.now();
  await Promise.all(
    chats.map(async (chat, index) => {
      for (let turn = 0; turn < MESSAGES; turn++) {
        await pause(PAUSE_MS / 2 + Math.random() * PAUSE_MS);
        const text = `Consultation ${index}, message ${turn}`;
        const arrived = new Promise<number | null>((resolve) => {
          arrivals.set(text, resolve);
          setTimeout(() => resolve(null), LOST_AFTER_MS);
        });
        const sentAt = performance.now();
        (turn % 2 ? chat.doctor : chat.patient).send(JSON.stringify({ type: "send", clientId: randomUUID(), text }));
        const at = await arrived;
        arrivals.delete(text);
        if (at === null) lost += 1;
        else latenciesMs.push(at - sentAt);
      }
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  for (const chat of chats) for (const socket of [chat.patient, chat.doctor]) socket.close(1000, "bench done");

  printLatencies(
    `Chat, ${CONSULTATIONS} consultations talking at once, ${MESSAGES} messages each (send to the other side receiving it):`,
    latenciesMs,
    `messages ${CONSULTATIONS * MESSAGES}, lost ${lost}, ${(latenciesMs.length / seconds).toFixed(0)} delivered per second`,
  );
  if (lost > 0) process.exitCode = 1;
} finally {
  await stop?.();
  rmSync(stateDir, { recursive: true, force: true });
}
