// The demo accounts and consultations that `npm start` seeds into the local D1. Fixed ids make the
// seed idempotent (INSERT OR IGNORE): running it again keeps whatever the data has become since.
import { crc32, deflateSync } from "node:zlib";

import { type Actor, type ConsultationMove, planCreation, planTransition } from "../../app/domain/consultation-status.ts";
import { followUpColumns, newPhotosDueAt } from "../../app/domain/follow-ups.ts";
import type { BodyArea, PhotoKind } from "../../app/domain/intake.ts";
import {
  chargeReversed,
  escrowReleased,
  type LedgerEntry,
  paymentCaptured,
  payoutReturned,
  payoutSettled,
  payoutStarted,
  refundReturned,
  refundSettled,
  refundStarted,
  transferFeeCharged,
} from "../../app/domain/ledger.ts";
import { CONSULTATION_FEE_SANTIM, splitRelease } from "../../app/domain/money.ts";
import type { DifferenceDetail } from "../../app/domain/reconciliation-details.ts";
import { hashPassword } from "../../app/server/auth/password.server.ts";
import { inserts, ledgerRows, type Row, type TableName } from "./seed-rows.ts";

export const DEMO_PASSWORD = "QodaDemo!2026";

export const DEMO_ACCOUNTS = [
  {
    id: "00000000-0000-4000-8000-000000000001",
    email: "admin@qoda.test",
    role: "admin",
    firstName: "Meron",
    lastName: "Tadesse",
    note: "admin",
  },
  {
    id: "00000000-0000-4000-8000-000000000002",
    email: "dr.abebe@qoda.test",
    role: "doctor",
    firstName: "Abebe",
    lastName: "Kebede",
    note: "active doctor, code ABEBE1",
    doctor: {
      status: "active",
      code: "ABEBE1",
      experienceYears: 9,
      languages: "am,en",
      colors: { back: [38, 110, 120], front: [214, 236, 232] },
    },
  },
  {
    id: "00000000-0000-4000-8000-000000000003",
    email: "dr.selam@qoda.test",
    role: "doctor",
    firstName: "Selam",
    lastName: "Girma",
    note: "inactive doctor",
    doctor: {
      status: "inactive",
      code: "SELAM2",
      experienceYears: 4,
      languages: "am",
      colors: { back: [150, 84, 60], front: [246, 226, 214] },
    },
  },
  {
    id: "00000000-0000-4000-8000-000000000004",
    email: "hana@qoda.test",
    role: "patient",
    firstName: "Hana",
    lastName: "Bekele",
    note: "patient",
  },
  {
    id: "00000000-0000-4000-8000-000000000005",
    email: "dawit@qoda.test",
    role: "patient",
    firstName: "Dawit",
    lastName: "Alemu",
    note: "patient",
  },
] as const;

const [, abebe, , hana, dawit] = DEMO_ACCOUNTS;
const MINUTE_MS = 60_000;

/** The doctor of a demo consultation that has one (paid, under way or ended): the seed stops if it has none. */
function doctorOf(consultation: DemoConsultation): string {
  if (!consultation.doctorId) throw new Error(`Demo consultation ${consultation.id} has no doctor`);
  return consultation.doctorId;
}

/** A time `ms` milliseconds into the epoch, as the schema's timestamp columns take it. */
const date = (ms: number) => new Date(ms);
const dateOrNull = (ms: number | null) => (ms === null ? null : new Date(ms));

/** One row of the demo: its table, its values as the schema types them, and the statement that writes it. */
export interface SeedRow {
  table: TableName;
  row: Record<string, unknown>;
  sql: string;
}

/** One row, typed by the schema; kept as it is if it is already there (the seed is idempotent). */
function insertOrIgnore<Name extends TableName>(table: Name, row: Row<Name>): SeedRow {
  return { table, row, sql: inserts(table, [row], { orIgnore: true })[0]! };
}

/** A ledger entry as the ledger module writes it, with ids fixed by its key so the seed stays idempotent. */
function ledgerSql(entry: LedgerEntry, createdAtMs: number): SeedRow[] {
  const { entryRow, lineRows } = ledgerRows(entry, createdAtMs, `demo:${entry.idempotencyKey}`);
  return [insertOrIgnore("ledger_entries", entryRow), ...lineRows.map((line) => insertOrIgnore("ledger_lines", line))];
}

/** The sandbox's charge on a demo payment, as its verify reports it (3.5 %). */
const DEMO_CHARGE_SANTIM = 525;

/** A move of the state machine and when it was made, in minutes after the consultation was created. */
type DemoMove = [move: ConsultationMove, minutesAfterCreation: number];

export interface DemoConsultation {
  id: string;
  patientId: string;
  /** The doctor who accepts it, if any move does. */
  doctorId: string | null;
  /** Its history: replayed through the state machine, which sets its status and times. */
  moves: DemoMove[];
  priority: NonNullable<Row<"consultations">["priority"]>;
  mainConcern: string;
  medicalHistory?: string;
  /** The structured intake (app/domain/intake.ts); one consultation has none, as those from before it. */
  intake?: {
    ageYears: number;
    sex: "female" | "male";
    bodyAreas: string;
    durationAmount: number;
    durationUnit: "days" | "weeks" | "months" | "years";
    symptoms: string;
    treatmentsTried: string;
    allergies: string;
  };
  minutesAgo: number;
  requestedDoctorCode?: string;
  summary?: { observations: string; diagnosis: string; treatmentPlan: string };
  /** A completed consultation the patient has not rated yet (it opens the feedback page). */
  awaitsFeedback?: boolean;
  /**
   * Where its money went, when not the usual way (held while under way, released once rated): disputed
   * and waiting for an admin, part refunded by an admin's decision, or released by the 72-hour schedule.
   */
  /** Charged back: the patient's bank took the payment back after the end, while it was held (frozen, before an admin). */
  money?: "disputed" | "part_refunded" | "released_by_schedule" | "charged_back";
  /** A follow-up: the completed consultation it continues (its doctor has it alone for the first minutes). */
  followUpOf?: string;
  /** The doctor's "send me new photos in N days", from the end. */
  newPhotosInDays?: number;
}

// Fixed ids, so the seed is idempotent; their first characters (what people see) differ.
const CONSULTATION_ID_PREFIXES = [
  "1d7f3a92",
  "2b94c6e1",
  "3e58a0d7",
  "4a13f8c5",
  "5c6e2b09",
  "6f0d9e34",
  "7a8b41f6",
  "8c2e7d15",
  "9d4b6c21",
  "a1e5f7b8",
  "b7c3d9e2",
  "c5d8e1f4",
  "d3f6a2c8",
];
const c = (n: number) => `${CONSULTATION_ID_PREFIXES[n - 1]}-0000-4000-9000-${String(n).padStart(12, "0")}`;

export const DEMO_CONSULTATIONS: DemoConsultation[] = [
  {
    id: c(1),
    patientId: hana.id,
    doctorId: null,
    moves: [],
    priority: "normal",
    mainConcern: "Dry, flaky patches on both elbows that itch at night.",
    intake: {
      ageYears: 28,
      sex: "female",
      bodyAreas: "right_forearm,left_forearm",
      durationAmount: 2,
      durationUnit: "weeks",
      symptoms: "itch",
      treatmentsTried: "Vaseline",
      allergies: "",
    },
    minutesAgo: 5,
  },
  {
    id: c(2),
    patientId: hana.id,
    doctorId: null,
    moves: [["submit", 0]],
    priority: "normal",
    mainConcern: "A mole on my back has grown darker over the last two months.",
    intake: {
      ageYears: 28,
      sex: "female",
      bodyAreas: "upper_back",
      durationAmount: 2,
      durationUnit: "months",
      symptoms: "",
      treatmentsTried: "",
      allergies: "",
    },
    medicalHistory: "No known illnesses.",
    minutesAgo: 12,
  },
  {
    id: c(3),
    patientId: dawit.id,
    doctorId: null,
    moves: [["submit", 0]],
    priority: "urgent",
    mainConcern: "Painful red rash spreading on my forearm since yesterday.",
    intake: {
      ageYears: 41,
      sex: "male",
      bodyAreas: "left_forearm",
      durationAmount: 1,
      durationUnit: "days",
      symptoms: "pain,spreading",
      treatmentsTried: "",
      allergies: "Penicillin",
    },
    medicalHistory: "Type 2 diabetes.",
    minutesAgo: 3,
    requestedDoctorCode: "ABEBE1",
  },
  {
    id: c(4),
    patientId: dawit.id,
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 20],
    ],
    priority: "high",
    mainConcern: "Acne on my cheeks that has not improved with soap and water.",
    intake: {
      ageYears: 41,
      sex: "male",
      bodyAreas: "face",
      durationAmount: 6,
      durationUnit: "months",
      symptoms: "",
      treatmentsTried: "Soap and water",
      allergies: "",
    },
    minutesAgo: 20,
  },
  {
    id: c(5),
    patientId: hana.id,
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 2],
      ["confirmPayment", 6],
    ],
    priority: "normal",
    mainConcern: "White spots on my neck and shoulders.",
    intake: {
      ageYears: 28,
      sex: "female",
      bodyAreas: "neck,upper_back",
      durationAmount: 3,
      durationUnit: "months",
      symptoms: "",
      treatmentsTried: "",
      allergies: "",
    },
    minutesAgo: 90,
  },
  {
    id: c(6),
    patientId: hana.id,
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 2],
      ["confirmPayment", 6],
      ["complete", 40],
    ],
    priority: "normal",
    mainConcern: "Itchy scalp with flakes.",
    intake: {
      ageYears: 28,
      sex: "female",
      bodyAreas: "scalp",
      durationAmount: 4,
      durationUnit: "weeks",
      symptoms: "itch",
      treatmentsTried: "Anti-dandruff shampoo",
      allergies: "",
    },
    minutesAgo: 3 * 24 * 60,
    summary: {
      observations: "Fine white scales across the scalp, no hair loss.",
      diagnosis: "Seborrhoeic dermatitis",
      treatmentPlan: "Ketoconazole 2% shampoo twice a week for four weeks; review if no better.",
    },
  },
  {
    id: c(7),
    patientId: dawit.id,
    // Accepted, its payment window closed, then withdrawn: the payment that arrived late awaits a refund.
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 1],
      ["expirePayment", 16],
      ["withdraw", 17],
    ],
    priority: "normal",
    mainConcern: "Dark spots on my hands.",
    intake: {
      ageYears: 41,
      sex: "male",
      bodyAreas: "right_hand,left_hand",
      durationAmount: 1,
      durationUnit: "years",
      symptoms: "",
      treatmentsTried: "",
      allergies: "",
    },
    minutesAgo: 5 * 24 * 60,
  },
  {
    id: c(8),
    patientId: hana.id,
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 2],
      ["confirmPayment", 6],
      ["complete", 40],
    ],
    priority: "normal",
    mainConcern: "Dry, cracked skin on my heels.",
    intake: {
      ageYears: 28,
      sex: "female",
      bodyAreas: "right_foot,left_foot",
      durationAmount: 2,
      durationUnit: "months",
      symptoms: "pain",
      treatmentsTried: "Foot cream",
      allergies: "",
    },
    minutesAgo: 26 * 60,
    summary: {
      observations: "Thick, dry skin with shallow fissures on both heels; no sign of infection.",
      diagnosis: "Heel fissures (xerosis)",
      treatmentPlan: "Urea 10% cream twice daily, cotton socks at night; review in three weeks.",
    },
    awaitsFeedback: true,
  },
  {
    id: c(9),
    patientId: dawit.id,
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 3],
      ["confirmPayment", 8],
      ["complete", 45],
    ],
    priority: "normal",
    mainConcern: "Red, scaly patches on my knees that keep coming back.",
    intake: {
      ageYears: 41,
      sex: "male",
      bodyAreas: "right_lower_leg,left_lower_leg",
      durationAmount: 3,
      durationUnit: "years",
      symptoms: "itch",
      treatmentsTried: "Hydrocortisone cream",
      allergies: "",
    },
    minutesAgo: 2 * 24 * 60,
    summary: {
      observations: "Well-defined red plaques with silvery scale on both knees.",
      diagnosis: "Plaque psoriasis",
      treatmentPlan: "Clobetasol 0.05% ointment once daily for two weeks, then twice a week; emollient daily.",
    },
    awaitsFeedback: true,
    money: "disputed",
  },
  {
    id: c(10),
    patientId: hana.id,
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 2],
      ["confirmPayment", 7],
      ["complete", 30],
    ],
    priority: "normal",
    mainConcern: "A rash under my watch strap.",
    minutesAgo: 6 * 24 * 60,
    summary: {
      observations: "A sharply outlined itchy rash where the strap's metal buckle touches the skin.",
      diagnosis: "Nickel contact dermatitis",
      treatmentPlan: "Avoid the metal buckle; hydrocortisone 1% cream twice daily for a week.",
    },
    money: "part_refunded",
  },
  {
    id: c(11),
    patientId: dawit.id,
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 4],
      ["confirmPayment", 9],
      ["complete", 50],
    ],
    priority: "normal",
    mainConcern: "Small itchy bumps on my wrists and between my fingers.",
    intake: {
      ageYears: 41,
      sex: "male",
      bodyAreas: "right_hand,left_hand",
      durationAmount: 2,
      durationUnit: "weeks",
      symptoms: "itch,spreading",
      treatmentsTried: "",
      allergies: "",
    },
    minutesAgo: 5 * 24 * 60,
    summary: {
      observations: "Burrows and small papules in the finger webs and on the wrists.",
      diagnosis: "Scabies",
      treatmentPlan: "Permethrin 5% cream on the whole body, repeated after a week; treat the household too.",
    },
    money: "released_by_schedule",
    newPhotosInDays: 14,
  },
  {
    id: c(12),
    patientId: dawit.id,
    // A follow-up of the scabies consultation: Dr. Abebe has it alone for its first minutes, then every doctor.
    doctorId: null,
    followUpOf: c(11),
    moves: [["submit", 0]],
    priority: "normal",
    mainConcern: "Still itchy at night after the second permethrin treatment, mostly between my fingers.",
    intake: {
      ageYears: 41,
      sex: "male",
      bodyAreas: "right_hand,left_hand",
      durationAmount: 3,
      durationUnit: "weeks",
      symptoms: "itch",
      treatmentsTried: "Permethrin 5% cream twice, a week apart.",
      allergies: "",
    },
    minutesAgo: 4,
  },
  {
    id: c(13),
    patientId: hana.id,
    doctorId: abebe.id,
    moves: [
      ["submit", 0],
      ["accept", 6],
      ["confirmPayment", 11],
      ["complete", 45],
    ],
    priority: "normal",
    mainConcern: "Red, scaly patches on my scalp and behind my ears.",
    intake: {
      ageYears: 28,
      sex: "female",
      bodyAreas: "scalp",
      durationAmount: 1,
      durationUnit: "months",
      symptoms: "itch",
      treatmentsTried: "Anti-dandruff shampoo",
      allergies: "",
    },
    minutesAgo: 30 * 60,
    summary: {
      observations: "Greasy yellowish scale on the scalp margin and behind both ears.",
      diagnosis: "Seborrheic dermatitis",
      treatmentPlan: "Ketoconazole 2% shampoo twice a week; hydrocortisone 1% behind the ears for five days.",
    },
    awaitsFeedback: true,
    money: "charged_back",
  },
];

/**
 * A drawn stand-in for a photo of skin, as a real PNG: a skin tone with a little grain (so it is not
 * flat) and a darker patch of `spotRadius` px in the middle, larger for a close-up.
 */
export function demoPhotoPng(spotRadius: number): Buffer {
  const [width, height] = [240, 180];
  let seed = spotRadius;
  const grain = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % 13) - 6;
  const pixels = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0, at = 0; y < height; y++) {
    pixels[at++] = 0; // this row is not filtered
    for (let x = 0; x < width; x++) {
      const inSpot = (x - width / 2) ** 2 + (y - height / 2) ** 2 < spotRadius ** 2;
      const shade = grain();
      for (const level of inSpot ? [92, 42, 28] : [160, 103, 74]) pixels[at++] = level + shade;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const framed = Buffer.alloc(typed.length + 8);
    framed.writeUInt32BE(data.length, 0);
    typed.copy(framed, 4);
    framed.writeUInt32BE(crc32(typed), typed.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a channel, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Request photos of the demo, each saying what it shows (guided photos); their files go to the local R2. */
interface DemoPhoto {
  id: string;
  consultationId: string;
  photoKind: PhotoKind;
  bodyArea: BodyArea;
  /** The darker patch's radius in the drawn photo, in px. */
  spotRadius: number;
}
export const DEMO_PHOTOS = (
  [
    { id: "00000000-0000-4000-8100-000000000001", consultationId: c(2), photoKind: "close_up", bodyArea: "upper_back", spotRadius: 60 },
    { id: "00000000-0000-4000-8100-000000000002", consultationId: c(2), photoKind: "distance", bodyArea: "upper_back", spotRadius: 8 },
    { id: "00000000-0000-4000-8100-000000000003", consultationId: c(3), photoKind: "close_up", bodyArea: "right_forearm", spotRadius: 50 },
    { id: "00000000-0000-4000-8100-000000000004", consultationId: c(5), photoKind: "close_up", bodyArea: "neck", spotRadius: 40 },
  ] satisfies DemoPhoto[]
).map((photo) => ({ ...photo, storageKey: `consultations/${photo.consultationId}/photos/${photo.id}` }));

/**
 * The consultation's columns after its moves, as the state machine plans them: created as a draft by
 * its patient, then each move in turn by whoever may make it. A move the machine refuses stops the seed.
 */
function replayMoves(consultation: DemoConsultation, createdAtMs: number) {
  const patient: Actor = { kind: "user", userId: consultation.patientId, role: "patient" };
  const doctor: Actor = { kind: "user", userId: consultation.doctorId ?? "", role: "doctor" };
  const actorOf: Record<ConsultationMove, Actor> = {
    submit: patient,
    withdraw: patient,
    accept: doctor,
    decline: doctor,
    complete: doctor,
    confirmPayment: { kind: "system" },
    expirePayment: { kind: "system" },
    cancelAfterPayment: { kind: "user", userId: DEMO_ACCOUNTS[0].id, role: "admin" },
  };
  const created = planCreation("draft", consultation.patientId, patient, new Date(createdAtMs));
  if (!created.ok) throw new Error(`Demo consultation ${consultation.id} cannot be created`);
  const row: Record<string, Date | string | null> = { ...created.changes };
  let facts = { status: created.changes.status, patientId: consultation.patientId, doctorId: null as string | null };
  for (const [move, minutes] of consultation.moves) {
    const plan = planTransition(facts, move, actorOf[move], new Date(createdAtMs + minutes * MINUTE_MS));
    if (!plan.ok) throw new Error(`Demo consultation ${consultation.id}: ${move} refused (${plan.refusal})`);
    Object.assign(row, plan.changes);
    facts = { ...facts, status: plan.to, doctorId: plan.changes.doctorId === undefined ? facts.doctorId : plan.changes.doctorId };
  }
  return { status: facts.status, columns: row as Partial<Row<"consultations">> };
}

/** The statement that seeds `consultation` as its moves leave it (INSERT OR IGNORE: the seed is idempotent). */
export function consultationSql(consultation: DemoConsultation, createdAtMs: number) {
  const replayed = replayMoves(consultation, createdAtMs);
  const earlier = consultation.followUpOf ? DEMO_CONSULTATIONS.find((other) => other.id === consultation.followUpOf) : undefined;
  const followUp = earlier?.doctorId ? followUpColumns(earlier.id, earlier.doctorId, new Date(createdAtMs)) : null;
  const { completedAt } = replayed.columns;
  return insertOrIgnore("consultations", {
    id: consultation.id,
    patientId: consultation.patientId,
    priority: consultation.priority,
    title: consultation.mainConcern.slice(0, 100),
    mainConcern: consultation.mainConcern,
    medicalHistory: consultation.medicalHistory ?? "",
    additionalComments: "",
    requestedDoctorCode: consultation.requestedDoctorCode ?? null,
    patientAgeYears: consultation.intake?.ageYears ?? null,
    patientSex: consultation.intake?.sex ?? null,
    bodyAreas: consultation.intake?.bodyAreas ?? "",
    durationAmount: consultation.intake?.durationAmount ?? null,
    durationUnit: consultation.intake?.durationUnit ?? null,
    symptoms: consultation.intake?.symptoms ?? "",
    treatmentsTried: consultation.intake?.treatmentsTried ?? "",
    allergies: consultation.intake?.allergies ?? "",
    pregnancy: consultation.intake?.sex === "female" ? "no" : null,
    observations: consultation.summary?.observations ?? null,
    diagnosis: consultation.summary?.diagnosis ?? null,
    treatmentPlan: consultation.summary?.treatmentPlan ?? null,
    followUpOfId: followUp?.followUpOfId ?? null,
    reservedForDoctorId: followUp?.reservedForDoctorId ?? null,
    reservedUntil: followUp?.reservedUntil ?? null,
    newPhotosDueAt: consultation.newPhotosInDays && completedAt ? newPhotosDueAt(consultation.newPhotosInDays, completedAt) : null,
    ...replayed.columns,
    status: replayed.status,
  });
}

/** The first demo consultation that its moves leave in `status` (tests and benches find theirs so). */
export function demoConsultationIn(status: string, where: (consultation: DemoConsultation) => boolean = () => true) {
  const found = DEMO_CONSULTATIONS.find((consultation) => replayMoves(consultation, 0).status === status && where(consultation));
  if (!found) throw new Error(`No demo consultation is ${status}`);
  return found;
}

/** What an admin's decision gave back of a disputed demo consultation's 150 ETB. */
const DEMO_PART_REFUND_SANTIM = 50 * 100;
const [admin] = DEMO_ACCOUNTS;

/** A dispute opened a day after the end; decided (with a part refund through the provider) at `decidedAt`, if given. */
function disputeSql(
  consultation: DemoConsultation,
  { paymentId, txRef, completedAt, decidedAt }: { paymentId: string; txRef: string; completedAt: number; decidedAt: number | null },
): SeedRow[] {
  const openedAt = completedAt + 24 * 60 * MINUTE_MS;
  const answeredAt = openedAt + 3 * 60 * MINUTE_MS;
  const statements = [
    insertOrIgnore("disputes", {
      id: consultation.id.replace("-9000-", "-e000-"),
      consultationId: consultation.id,
      patientId: consultation.patientId,
      doctorId: doctorOf(consultation),
      reason: decidedAt ? "wrong_advice" : "not_helpful",
      patientWords: decidedAt
        ? "The cream made the rash worse for three days before it got better."
        : "The answer was very short and did not say what to do if it comes back.",
      doctorAnswer: decidedAt ? "Hydrocortisone can sting at first on broken skin; the advice to avoid the buckle stands." : null,
      doctorAnsweredAt: dateOrNull(decidedAt ? answeredAt : null),
      status: decidedAt ? "resolved" : "open",
      resolution: decidedAt ? "refund_part" : null,
      refundSantim: decidedAt ? DEMO_PART_REFUND_SANTIM : null,
      resolutionNote: decidedAt ? "The advice was sound, but the patient was not warned about the stinging: 50 ETB back." : null,
      resolvedBy: decidedAt ? admin.id : null,
      resolvedAt: dateOrNull(decidedAt),
      createdAt: date(openedAt),
      updatedAt: date(decidedAt ?? openedAt),
    }),
  ];
  if (!decidedAt) return statements;
  const refund = {
    reference: `demo-rf-${consultation.id.slice(-4)}`,
    consultationId: consultation.id,
    paymentId,
    amountSantim: DEMO_PART_REFUND_SANTIM,
  };
  statements.push(
    insertOrIgnore("refunds", {
      id: consultation.id.replace("-9000-", "-f000-"),
      paymentId: paymentId,
      consultationId: consultation.id,
      reference: refund.reference,
      amountSantim: DEMO_PART_REFUND_SANTIM,
      reason: "dispute",
      channel: "provider",
      status: "succeeded",
      accepted: true,
      attempts: 1,
      providerReference: `SBXDEMO${txRef.slice(-4).toUpperCase()}`,
      requestedBy: admin.id,
      settledAt: date(decidedAt + 2 * MINUTE_MS),
      createdAt: date(decidedAt),
      updatedAt: date(decidedAt + 2 * MINUTE_MS),
    }),
    ...ledgerSql(refundStarted(refund), decidedAt),
    ...ledgerSql(refundSettled(refund), decidedAt + 2 * MINUTE_MS),
  );
  return statements;
}

/** The run of the daily reconciliation that found the demo's differences with the payment service. */
const DEMO_RECONCILIATION_RUN_ID = "00000000-0000-4000-a300-000000000001";

/**
 * A payment the patient's bank took back while its escrow was held: frozen (charged back), its money out
 * of the books, and the difference before an admin on the reconciliation page.
 */
function chargebackSql(
  consultation: DemoConsultation,
  { paymentId, txRef, at }: { paymentId: string; txRef: string; at: number },
): SeedRow[] {
  return [
    ...reconciliationSql(at),
    ...ledgerSql(
      chargeReversed({ txRef, paymentId, consultationId: consultation.id, amountSantim: CONSULTATION_FEE_SANTIM, released: null }),
      at,
    ),
    insertOrIgnore("reconciliation_differences", {
      id: "00000000-0000-4000-a300-000000000011",
      runId: DEMO_RECONCILIATION_RUN_ID,
      kind: "charged_back",
      subject: "payment",
      reference: txRef,
      consultationId: consultation.id,
      // As storedDifferenceDetail keeps them (not imported: its module's imports are not Node's to run).
      ours: JSON.stringify({ says: "escrow_status", status: "held" } satisfies DifferenceDetail),
      theirs: JSON.stringify({ says: "provider_status", status: "reversed" } satisfies DifferenceDetail),
      oursSantim: CONSULTATION_FEE_SANTIM,
      theirsSantim: 0,
      status: "open",
      createdAt: date(at),
      updatedAt: date(at),
    }),
  ];
}

/** The daily reconciliation run that found the chargeback (the payment read reversed at the payment service). */
function reconciliationSql(ranAt: number): SeedRow[] {
  return [
    insertOrIgnore("reconciliation_runs", {
      id: DEMO_RECONCILIATION_RUN_ID,
      periodStart: date(ranAt - 3 * 24 * 60 * MINUTE_MS),
      periodEnd: date(ranAt),
      requestedBy: null,
      transactionsCompared: 4,
      refundsCompared: 1,
      transfersCompared: 2,
      providerBalanceSantim: null,
      booksBalanceSantim: null,
      differencesFound: 1,
      error: null,
      createdAt: date(ranAt),
      finishedAt: date(ranAt + 2_000),
    }),
  ];
}

/** The demo doctor's payout details: a telebirr wallet from the sandbox's list. */
const DEMO_PAYOUT_ACCOUNT = { bankCode: "855", bankName: "telebirr", accountNumber: "0911000002" } as const;

const DEMO_PAYOUT_FAILURE = "The receiving wallet is not registered for this name";

/**
 * The active demo doctor's payouts: the first consultation a patient confirmed, paid out two days ago;
 * then what the dispute and the schedule released, sent yesterday and failed (back in their balance).
 */
function demoPayouts(now: Date) {
  const at = (minutesAgo: number) => now.getTime() - minutesAgo * MINUTE_MS;
  const doctorShare = (amountSantim: number) => splitRelease(amountSantim).doctorSantim;
  return [
    {
      payout: { reference: "demo-po-0001", doctorId: abebe.id, amountSantim: doctorShare(CONSULTATION_FEE_SANTIM) },
      status: "succeeded" as const,
      sentAt: at(2 * 24 * 60),
      id: "00000000-0000-4000-f100-000000000001",
    },
    {
      payout: {
        reference: "demo-po-0002",
        doctorId: abebe.id,
        amountSantim: doctorShare(CONSULTATION_FEE_SANTIM - DEMO_PART_REFUND_SANTIM) + doctorShare(CONSULTATION_FEE_SANTIM),
      },
      status: "failed" as const,
      sentAt: at(24 * 60),
      id: "00000000-0000-4000-f100-000000000002",
    },
  ];
}

function payoutsSql(now: Date): SeedRow[] {
  const at = (minutesAgo: number) => now.getTime() - minutesAgo * MINUTE_MS;
  const statements = [
    insertOrIgnore("doctor_payout_accounts", {
      doctorId: abebe.id,
      bankCode: DEMO_PAYOUT_ACCOUNT.bankCode,
      bankName: DEMO_PAYOUT_ACCOUNT.bankName,
      accountName: `${abebe.firstName} ${abebe.lastName}`,
      accountNumber: DEMO_PAYOUT_ACCOUNT.accountNumber,
      createdAt: date(at(20 * 24 * 60)),
      updatedAt: date(at(20 * 24 * 60)),
    }),
  ];
  for (const { payout, status, sentAt, id } of demoPayouts(now)) {
    statements.push(
      insertOrIgnore("payouts", {
        id,
        doctorId: payout.doctorId,
        reference: payout.reference,
        amountSantim: payout.amountSantim,
        bankCode: DEMO_PAYOUT_ACCOUNT.bankCode,
        bankName: DEMO_PAYOUT_ACCOUNT.bankName,
        accountName: `${abebe.firstName} ${abebe.lastName}`,
        accountNumber: DEMO_PAYOUT_ACCOUNT.accountNumber,
        status,
        accepted: true,
        attempts: 1,
        providerReference: `SBXDEMOPO${id.slice(-1)}`,
        failureReason: status === "failed" ? DEMO_PAYOUT_FAILURE : null,
        feeSantim: status === "succeeded" ? 500 : null,
        settledAt: date(sentAt + 5 * MINUTE_MS),
        createdAt: date(sentAt),
        updatedAt: date(sentAt + 5 * MINUTE_MS),
      }),
      ...ledgerSql(payoutStarted(payout), sentAt),
      ...(status === "succeeded"
        ? [
            ...ledgerSql(payoutSettled(payout), sentAt + 5 * MINUTE_MS),
            ...ledgerSql(transferFeeCharged({ ...payout, feeSantim: 500 }), sentAt + 5 * MINUTE_MS),
          ]
        : ledgerSql(payoutReturned(payout), sentAt + 5 * MINUTE_MS)),
    );
  }
  return statements;
}

const demoPictureKey = (doctorId: string) => `doctor-pictures/${doctorId}/demo`;

type Rgb = readonly [number, number, number];

/** A 256×256 PNG of a head and shoulders in `front` on `back`: a stand-in for a doctor's photo. */
function avatarPng(back: Rgb, front: Rgb): Buffer {
  const size = 256;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // No filter on this scanline.
    for (let x = 0; x < size; x++) {
      const head = (x - 128) ** 2 + (y - 100) ** 2 < 48 ** 2;
      const shoulders = y > 160 && ((x - 128) / 100) ** 2 + ((y - 256) / 96) ** 2 < 1;
      rows.push(...(head || shoulders ? front : back));
    }
  }
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, "ascii"), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a channel, RGB, no interlace.
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The demo doctors' pictures, for the local R2 (the seed points their rows at these keys). */
export function demoDoctorPictures() {
  return DEMO_ACCOUNTS.flatMap((account) =>
    "doctor" in account
      ? [{ key: demoPictureKey(account.id), png: avatarPng(account.doctor.colors.back, account.doctor.colors.front) }]
      : [],
  );
}

/** A small, real one-page PDF that says `title`: the demo applications' licence files (and the journeys'). */
export function licencePdf(title: string): string {
  const text = `BT /F1 18 Tf 20 70 Td (${title.replace(/[()\\]/g, "")}) Tj ET`;
  return [
    "%PDF-1.4",
    "1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj",
    "2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj",
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 360 144]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj",
    `4 0 obj<</Length ${text.length}>>stream\n${text}\nendstream endobj`,
    "5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj",
    "trailer<</Root 1 0 R>>",
    "%%EOF",
  ].join("\n");
}

// Doctors' applications: two waiting for review, one rejected. Their licence files go to the local R2.
const r = (n: number) => `00000000-0000-4000-d000-00000000000${n}`;
export const DEMO_REGISTRATIONS = [
  {
    id: r(1),
    fullName: "Yohannes Tesfaye",
    email: "yohannes.tesfaye@example.com",
    city: "Addis Ababa, Ethiopia",
    years: 8,
    status: "pending" as const,
  },
  {
    id: r(2),
    fullName: "Mahlet Girma",
    email: "mahlet.girma@example.com",
    city: "Bahir Dar, Ethiopia",
    years: 3,
    status: "pending" as const,
  },
  {
    id: r(3),
    fullName: "Samuel Bekele",
    email: "samuel.bekele@example.com",
    city: "Hawassa, Ethiopia",
    years: 1,
    status: "rejected" as const,
  },
].map((item) => ({ ...item, licenceKey: `licences/${item.id}`, licenceName: `${item.fullName.split(" ")[0]!.toLowerCase()}-licence.pdf` }));

/** The tx_ref of a demo consultation's payment (the one its escrow holds). */
const demoTxRef = (consultation: DemoConsultation) => `demo-${consultation.id.slice(-4)}`;

/**
 * What the payment sandbox keeps, as Chapa would, of every payment the seed records as paid (the
 * consultations under way or ended, whose escrow an admin may refund; the late payments an admin may ask
 * again for; the one charged back, read reversed), and of the demo doctor's transfers (with Chapa's
 * fee): each with its R2 key and record, so the books and the sandbox agree.
 */
export function demoSandboxRecords(now: Date) {
  const late = DEMO_CONSULTATIONS.find((consultation) => consultation.moves.some(([move]) => move === "expirePayment"))!;
  const paid = DEMO_CONSULTATIONS.filter((consultation) => ["in_progress", "completed"].includes(replayMoves(consultation, 0).status)).map(
    (consultation) => ({
      consultation,
      txRef: demoTxRef(consultation),
      // The part a decided dispute already gave back; all of it when the bank took it back.
      refundedSantim:
        consultation.money === "part_refunded"
          ? DEMO_PART_REFUND_SANTIM
          : consultation.money === "charged_back"
            ? CONSULTATION_FEE_SANTIM
            : 0,
      status: consultation.money === "charged_back" ? "reversed" : "success",
      startedLater: 0,
    }),
  );
  const transactions = [
    ...paid,
    { consultation: late, txRef: `demo-late-${late.id.slice(-4)}`, refundedSantim: 0, status: "success", startedLater: 0 },
    { consultation: late, txRef: `demo-late2-${late.id.slice(-4)}`, refundedSantim: 0, status: "success", startedLater: 22 },
  ].map(({ consultation, txRef, refundedSantim, status, startedLater }) => {
    const patient = DEMO_ACCOUNTS.find((account) => account.id === consultation.patientId)!;
    return {
      key: `payment-sandbox/${txRef}`,
      record: {
        txRef,
        amountSantim: CONSULTATION_FEE_SANTIM,
        email: patient.email,
        firstName: patient.firstName,
        lastName: patient.lastName,
        callbackUrl: "",
        returnUrl: "",
        status,
        currency: "ETB",
        reference: `SBXDEMO${txRef.slice(-4).toUpperCase()}${txRef.includes("late2") ? "2" : ""}`,
        // When our payment was started (3 minutes after the request), as Chapa dates it.
        createdAt: now.getTime() - (consultation.minutesAgo - 3 - startedLater) * MINUTE_MS,
        ...(refundedSantim > 0 ? { refundedSantim } : {}),
      },
    };
  });
  const transfers = demoPayouts(now).map(({ payout, status, sentAt }) => ({
    key: `payment-sandbox/transfers/${payout.reference}`,
    record: {
      reference: payout.reference,
      amountSantim: payout.amountSantim,
      bankCode: DEMO_PAYOUT_ACCOUNT.bankCode,
      bankName: DEMO_PAYOUT_ACCOUNT.bankName,
      accountName: `${abebe.firstName} ${abebe.lastName}`,
      accountNumber: DEMO_PAYOUT_ACCOUNT.accountNumber,
      status: status === "succeeded" ? "success" : "failed",
      feeSantim: status === "succeeded" ? 500 : 0,
      failureReason: status === "failed" ? DEMO_PAYOUT_FAILURE : null,
      chapaReference: `SBXDEMOPO${payout.reference.slice(-1)}`,
      createdAt: sentAt,
      updatedAt: sentAt + 5 * MINUTE_MS,
    },
  }));
  return [...transactions, ...transfers];
}

/** The demo's rows, each with its SQL statement (safe to run any number of times), in the order they are written. */
export async function demoRows(now: Date): Promise<SeedRow[]> {
  const at = (minutesAgo: number) => now.getTime() - minutesAgo * MINUTE_MS;
  const statements: SeedRow[] = [];
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  for (const account of DEMO_ACCOUNTS) {
    statements.push(
      insertOrIgnore("users", {
        id: account.id,
        email: account.email,
        emailConfirmedAt: date(at(60 * 24 * 30)),
        createdAt: date(at(60 * 24 * 30)),
        updatedAt: date(at(60 * 24 * 30)),
      }),
      insertOrIgnore("password_credentials", { userId: account.id, passwordHash, updatedAt: date(at(60 * 24 * 30)) }),
      insertOrIgnore("user_roles", { userId: account.id, role: account.role, createdAt: date(at(60 * 24 * 30)) }),
      insertOrIgnore("profiles", {
        userId: account.id,
        firstName: account.firstName,
        lastName: account.lastName,
        phone: "+251911000000",
        preferredLanguage: "en",
        consentTerms: true,
        consentPrivacy: true,
        consentTimestamp: date(at(60 * 24 * 30)),
        createdAt: date(at(60 * 24 * 30)),
        updatedAt: date(at(60 * 24 * 30)),
      }),
    );
    if ("doctor" in account) {
      statements.push(
        insertOrIgnore("doctors", {
          userId: account.id,
          status: account.doctor.status,
          specialty: "Dermatologist",
          doctorCode: account.doctor.code,
          experienceYears: account.doctor.experienceYears,
          consultationLanguages: account.doctor.languages,
          profilePictureKey: demoPictureKey(account.id),
          createdAt: date(at(60 * 24 * 30)),
          updatedAt: date(at(60 * 24 * 30)),
        }),
      );
    }
  }

  for (const consultation of DEMO_CONSULTATIONS) {
    const createdAt = at(consultation.minutesAgo);
    statements.push(consultationSql(consultation, createdAt));
    const { status } = replayMoves(consultation, createdAt);
    if (status === "in_progress" || status === "completed") {
      const paymentId = consultation.id.replace("-9000-", "-a000-");
      const txRef = demoTxRef(consultation);
      const paidAt = createdAt + 5 * MINUTE_MS;
      const completedAt = createdAt + (consultation.moves.find(([move]) => move === "complete")?.[1] ?? 0) * MINUTE_MS;
      const money = status === "completed" ? (consultation.money ?? (consultation.awaitsFeedback ? "held" : "confirmed")) : "held";
      const released = money === "confirmed" || money === "released_by_schedule" || money === "part_refunded";
      // Released when the patient confirmed it, 72 hours after the end, or by an admin's decision a day after the dispute.
      const confirmedAt =
        money === "released_by_schedule"
          ? completedAt + 72 * 60 * MINUTE_MS
          : money === "part_refunded"
            ? completedAt + 2 * 24 * 60 * MINUTE_MS
            : createdAt + 60 * MINUTE_MS;
      statements.push(
        insertOrIgnore("chats", {
          consultationId: consultation.id,
          doctorId: doctorOf(consultation),
          patientId: consultation.patientId,
          status: status === "completed" ? "closed" : "active",
          createdAt: date(createdAt + 2 * MINUTE_MS),
        }),
        insertOrIgnore("payments", {
          id: paymentId,
          consultationId: consultation.id,
          patientId: consultation.patientId,
          txRef: txRef,
          provider: "sandbox",
          amountSantim: CONSULTATION_FEE_SANTIM,
          currency: "ETB",
          status: "paid",
          needsAdminReview: false,
          createdAt: date(createdAt + 3 * MINUTE_MS),
          paidAt: date(paidAt),
          updatedAt: date(paidAt),
        }),
        // The money: captured into the consultation's escrow, held for its doctor.
        ...ledgerSql(
          paymentCaptured({
            txRef,
            paymentId,
            consultationId: consultation.id,
            amountSantim: CONSULTATION_FEE_SANTIM,
            chargeSantim: DEMO_CHARGE_SANTIM,
          }),
          paidAt,
        ),
        insertOrIgnore("escrows", {
          consultationId: consultation.id,
          paymentId,
          doctorId: doctorOf(consultation),
          amountSantim: CONSULTATION_FEE_SANTIM,
          status: released ? "released" : money === "disputed" ? "disputed" : money === "charged_back" ? "charged_back" : "held",
          confirmedAt: dateOrNull(money === "confirmed" ? confirmedAt : null),
          releasedAt: dateOrNull(released ? confirmedAt : null),
          createdAt: date(paidAt),
          updatedAt: date(released ? confirmedAt : paidAt),
        }),
      );
      if (money === "charged_back")
        statements.push(...chargebackSql(consultation, { paymentId, txRef, at: completedAt + 20 * 60 * MINUTE_MS }));
      if (money === "disputed" || money === "part_refunded")
        statements.push(
          ...disputeSql(consultation, { paymentId, txRef, completedAt, decidedAt: money === "part_refunded" ? confirmedAt : null }),
        );
      // Released to the doctor (what a part refund left, after a dispute).
      if (released && consultation.doctorId)
        statements.push(
          ...ledgerSql(
            escrowReleased({
              consultationId: consultation.id,
              doctorId: consultation.doctorId,
              amountSantim: CONSULTATION_FEE_SANTIM - (money === "part_refunded" ? DEMO_PART_REFUND_SANTIM : 0),
            }),
            confirmedAt,
          ),
        );
    }
    if (status === "completed" && !consultation.awaitsFeedback) {
      statements.push(
        insertOrIgnore("patient_feedback", {
          id: consultation.id.replace("-9000-", "-b000-"),
          consultationId: consultation.id,
          patientId: consultation.patientId,
          doctorId: consultation.doctorId,
          rating: 5,
          feedbackMessage: "Clear advice, and my scalp is already better.",
          allowContact: false,
          createdAt: date(createdAt + 60 * MINUTE_MS),
        }),
      );
    }
  }
  for (const [index, photo] of DEMO_PHOTOS.entries()) {
    const consultation = DEMO_CONSULTATIONS.find((item) => item.id === photo.consultationId)!;
    statements.push(
      insertOrIgnore("consultation_files", {
        id: photo.id,
        consultationId: photo.consultationId,
        uploaderId: consultation.patientId,
        kind: "photo",
        storageKey: photo.storageKey,
        contentType: "image/png",
        sizeBytes: demoPhotoPng(photo.spotRadius).length,
        photoKind: photo.photoKind,
        bodyArea: photo.bodyArea,
        // Uploaded before the request was sent, in this order.
        createdAt: date(at(consultation.minutesAgo) - (DEMO_PHOTOS.length - index) * 1000),
      }),
    );
  }
  // A payment that arrived after its window had closed (the request was then withdrawn): its refund failed.
  const late = DEMO_CONSULTATIONS.find((consultation) => consultation.moves.some(([move]) => move === "expirePayment"))!;
  const lateTxRef = `demo-late-${late.id.slice(-4)}`;
  const lateRefund = {
    reference: `demo-rf-${late.id.slice(-4)}`,
    consultationId: late.id,
    paymentId: late.id.replace("-9000-", "-a000-"),
    amountSantim: CONSULTATION_FEE_SANTIM,
  };
  statements.push(
    insertOrIgnore("payments", {
      id: late.id.replace("-9000-", "-a000-"),
      consultationId: late.id,
      patientId: late.patientId,
      txRef: lateTxRef,
      provider: "sandbox",
      amountSantim: CONSULTATION_FEE_SANTIM,
      currency: "ETB",
      status: "paid_after_expiry",
      needsAdminReview: true,
      createdAt: date(at(late.minutesAgo - 3)),
      paidAt: date(at(late.minutesAgo - 20)),
      updatedAt: date(at(late.minutesAgo - 20)),
    }),
    // Its money, captured into the consultation's escrow to be refunded from there.
    ...ledgerSql(
      paymentCaptured({
        txRef: lateTxRef,
        paymentId: late.id.replace("-9000-", "-a000-"),
        consultationId: late.id,
        amountSantim: CONSULTATION_FEE_SANTIM,
        chargeSantim: DEMO_CHARGE_SANTIM,
      }),
      at(late.minutesAgo - 20),
    ),
    // Refunded through the provider at once, which refused it: back in escrow, for an admin to ask again.
    insertOrIgnore("refunds", {
      id: late.id.replace("-9000-", "-f000-"),
      paymentId: late.id.replace("-9000-", "-a000-"),
      consultationId: late.id,
      reference: `demo-rf-${late.id.slice(-4)}`,
      amountSantim: CONSULTATION_FEE_SANTIM,
      reason: "late_payment",
      channel: "provider",
      status: "failed",
      accepted: false,
      attempts: 6,
      lastError: "Insufficient balance in the merchant account",
      createdAt: date(at(late.minutesAgo - 20)),
      updatedAt: date(at(late.minutesAgo - 200)),
    }),
    ...ledgerSql(refundStarted(lateRefund), at(late.minutesAgo - 20)),
    ...ledgerSql(refundReturned(lateRefund), at(late.minutesAgo - 200)),
    // An earlier attempt of the same request whose provider record disagreed with ours: flagged for an admin.
    insertOrIgnore("payments", {
      id: late.id.replace("-9000-", "-c000-"),
      consultationId: late.id,
      patientId: late.patientId,
      txRef: `demo-check-${late.id.slice(-4)}`,
      provider: "sandbox",
      amountSantim: CONSULTATION_FEE_SANTIM,
      currency: "ETB",
      status: "initialized",
      needsAdminReview: true,
      reviewReason: "provider_disagrees",
      providerAnswer: JSON.stringify({ status: "success", amount: 15, currency: "ETB", txRef: `demo-check-${late.id.slice(-4)}` }),
      createdAt: date(at(late.minutesAgo - 2)),
      updatedAt: date(at(late.minutesAgo - 10)),
    }),
  );
  // The same patient paid on the same link again: its refund could never reach the payment service, and
  // waits for an admin (ask again, record it refunded outside, or fail it once the service confirms).
  const lateAgain = {
    reference: `demo-rf2-${late.id.slice(-4)}`,
    consultationId: late.id,
    paymentId: late.id.replace("-9000-", "-d000-"),
    amountSantim: CONSULTATION_FEE_SANTIM,
  };
  const lateAgainTxRef = `demo-late2-${late.id.slice(-4)}`;
  statements.push(
    insertOrIgnore("payments", {
      id: lateAgain.paymentId,
      consultationId: late.id,
      patientId: late.patientId,
      txRef: lateAgainTxRef,
      provider: "sandbox",
      amountSantim: CONSULTATION_FEE_SANTIM,
      currency: "ETB",
      status: "paid_after_expiry",
      needsAdminReview: true,
      createdAt: date(at(late.minutesAgo - 25)),
      paidAt: date(at(late.minutesAgo - 26)),
      updatedAt: date(at(late.minutesAgo - 26)),
    }),
    ...ledgerSql(
      paymentCaptured({
        txRef: lateAgainTxRef,
        paymentId: lateAgain.paymentId,
        consultationId: late.id,
        amountSantim: CONSULTATION_FEE_SANTIM,
        chargeSantim: DEMO_CHARGE_SANTIM,
      }),
      at(late.minutesAgo - 26),
    ),
    insertOrIgnore("refunds", {
      // A UUID an admin's form accepts (its variant nibble 8 to b), unlike the older seeded rows' f.
      id: late.id.replace("-9000-", "-a100-"),
      paymentId: lateAgain.paymentId,
      consultationId: late.id,
      reference: lateAgain.reference,
      amountSantim: CONSULTATION_FEE_SANTIM,
      reason: "duplicate_payment",
      channel: "provider",
      status: "pending",
      accepted: false,
      attempts: 6,
      nextAttemptAt: null,
      reviewReason: "attempts_exhausted",
      lastError: "Chapa could not be reached (TimeoutError: The operation was aborted due to timeout)",
      createdAt: date(at(late.minutesAgo - 26)),
      updatedAt: date(at(late.minutesAgo - 300)),
    }),
    ...ledgerSql(refundStarted(lateAgain), at(late.minutesAgo - 26)),
  );
  statements.push(...payoutsSql(now));
  for (const [index, item] of DEMO_REGISTRATIONS.entries()) {
    statements.push(
      insertOrIgnore("doctor_registrations", {
        id: item.id,
        fullName: item.fullName,
        phone: `+25191155000${index}`,
        email: item.email,
        cityCountry: item.city,
        experienceYears: item.years,
        licenceFileKey: item.licenceKey,
        licenceFileName: item.licenceName,
        licenceContentType: "application/pdf",
        licenceSizeBytes: licencePdf(item.fullName).length,
        status: item.status,
        createdAt: date(at(60 * (index + 2))),
        reviewedBy: item.status === "pending" ? null : DEMO_ACCOUNTS[0].id,
        reviewedAt: dateOrNull(item.status === "pending" ? null : at(60)),
        rejectionReason: item.status === "rejected" ? "The licence scan is unreadable. Please apply again with a clear copy." : null,
      }),
    );
  }
  statements.push(
    insertOrIgnore("contact_messages", {
      id: "00000000-0000-4000-c000-000000000002",
      name: "Bereket Assefa",
      email: "bereket@example.com",
      subject: "Do you see children?",
      message: "My daughter is 9 and has eczema. Can I ask for her?",
      createdAt: date(at(90)),
    }),
    insertOrIgnore("contact_messages", {
      id: "00000000-0000-4000-c000-000000000001",
      name: "Tigist Haile",
      email: "tigist@example.com",
      subject: "Payment by telebirr?",
      message: "Can I pay with telebirr?",
      createdAt: date(at(60 * 24)),
    }),
  );
  return statements;
}
