// The scheduled release at scale (docs/decisions/0044): one call settles many more holds than a batch
// holds, each once, with the same entry the domain plans for each, the books balanced and every doctor's
// payable exactly the sum of their shares; two calls at once release each once. And the SQL the release
// runs says what the domain says: the rule of when a hold may go (releaseRefusal) and the split
// (splitRelease), compared in D1 itself.
import { env } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, escrows, ledgerEntries, ledgerLines, notifications } from "~/db/schema";
import { CONSULTATION_STATUSES } from "~/domain/consultation-status";
import { ESCROW_STATUSES, releaseAllowedSql, releaseRefusal } from "~/domain/escrow";
import { escrowReleased } from "~/domain/ledger";
import { platformShareSql, splitRelease } from "~/domain/money";
import { inSlices } from "~/server/db/chunks.server";
import { releaseDueEscrows } from "~/server/money/escrow.server";
import { balanceOf, ledgerEntryPerRowStatements } from "~/server/money/ledger.server";

import { createUser, db } from "./fixtures";
import { ESCROW_RELEASE_AFTER_MS } from "./money-fixtures";

/** Amounts that round every way (a platform share of nothing, of half a santim up), cycled over the holds. */
const AMOUNTS = [15_000, 1, 2, 3, 24, 25, 26, 49, 50, 51, 12_345, 99_999, 14_999, 15_001];
const DOCTORS = 7;
const HOUR_MS = 60 * 60_000;

/** A UUID-shaped id for row `index` of a seeding, the same in JS and in SQL. */
const idPrefix = () => crypto.randomUUID().slice(0, 24);
const idOf = (prefix: string, index: number) => `${prefix}${index.toString(16).padStart(12, "0")}`;

/**
 * `count` consultations of one patient, ended `endedAgoMs` ago, paid, their fee held in escrow (amounts
 * cycling through AMOUNTS, doctors through DOCTORS) with its capture in the ledger: written in a few
 * set-based statements, as D1 binds at most 100 parameters to one.
 */
async function seedHeld(count: number, endedAgoMs: number) {
  const patientId = await createUser("patient");
  const doctorIds = await Promise.all(Array.from({ length: DOCTORS }, () => createUser("doctor")));
  const [consultation, payment, entry] = [idPrefix(), idPrefix(), idPrefix()];
  const now = Date.now();
  const completedAt = now - endedAgoMs;
  const rows = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1)`;
  const id = (prefix: string, index = "i") => `?${prefix} || printf('%012x', ${index})`;
  const amount = `json_extract(?3, '$[' || (i % ${AMOUNTS.length}) || ']')`;
  const doctor = `json_extract(?4, '$[' || (i % ${DOCTORS}) || ']')`;
  const bind = [count, patientId, JSON.stringify(AMOUNTS), JSON.stringify(doctorIds), completedAt, consultation, payment, entry];
  await env.DB.batch(
    [
      `${rows} INSERT INTO consultations (id, patient_id, doctor_id, status, priority, title, main_concern, diagnosis, accepted_at, started_at, completed_at, created_at, updated_at)
       SELECT ${id("6")}, ?2, ${doctor}, 'completed', 'normal', 'Itchy rash', 'Itchy rash on my arm', 'Contact dermatitis', ?5 - 3600000, ?5 - 1800000, ?5, ?5 - 3600000, ?5 FROM n`,
      `${rows} INSERT INTO payments (id, consultation_id, patient_id, tx_ref, provider, amount_santim, currency, status, paid_at, created_at, updated_at)
       SELECT ${id("7")}, ${id("6")}, ?2, 'scale-' || ${id("7")}, 'sandbox', ${amount}, 'ETB', 'paid', ?5 - 1800000, ?5 - 3600000, ?5 - 1800000 FROM n`,
      `${rows} INSERT INTO escrows (consultation_id, payment_id, doctor_id, amount_santim, status, created_at, updated_at)
       SELECT ${id("6")}, ${id("7")}, ${doctor}, ${amount}, 'held', ?5 - 1800000, ?5 - 1800000 FROM n`,
      `${rows} INSERT INTO ledger_entries (id, idempotency_key, kind, consultation_id, doctor_id, payment_id, line_count, created_at)
       SELECT ${id("8")}, 'payment:scale-' || ${id("7")} || ':captured', 'payment_captured', ${id("6")}, NULL, ${id("7")}, 2, ?5 - 1800000 FROM n`,
      `${rows} INSERT INTO ledger_lines (id, entry_id, account, subject, amount_santim)
       SELECT lower(hex(randomblob(16))), ${id("8")}, 'provider_clearing', '', ${amount} FROM n
       UNION ALL SELECT lower(hex(randomblob(16))), ${id("8")}, 'escrow', ${id("6")}, -${amount} FROM n`,
    ].map((statement) => {
      const used = [...new Set([...statement.matchAll(/\?(\d)/g)].map((match) => Number(match[1])))].sort();
      return env.DB.prepare(statement).bind(...bind.slice(0, Math.max(...used)));
    }),
  );
  const holds = Array.from({ length: count }, (_, index) => ({
    consultationId: idOf(consultation, index),
    doctorId: doctorIds[index % DOCTORS]!,
    amountSantim: AMOUNTS[index % AMOUNTS.length]!,
  }));
  return { patientId, doctorIds, holds };
}

type Hold = Awaited<ReturnType<typeof seedHeld>>["holds"][number];

/** What the ledger holds for `holds`' release keys: each entry with its lines, as the domain would plan them. */
async function releaseEntriesOf(holds: Hold[]) {
  const entries: Array<typeof ledgerEntries.$inferSelect> = [];
  for (const slice of inSlices(holds.map((hold) => `consultation:${hold.consultationId}:released`))) {
    entries.push(...(await db.select().from(ledgerEntries).where(inArray(ledgerEntries.idempotencyKey, slice))));
  }
  const lines: Array<typeof ledgerLines.$inferSelect> = [];
  for (const slice of inSlices(entries.map((entry) => entry.id))) {
    lines.push(...(await db.select().from(ledgerLines).where(inArray(ledgerLines.entryId, slice))));
  }
  return entries.map((entry) => ({
    idempotencyKey: entry.idempotencyKey,
    kind: entry.kind,
    consultationId: entry.consultationId,
    doctorId: entry.doctorId,
    paymentId: entry.paymentId,
    lines: lines
      .filter((line) => line.entryId === entry.id)
      .map(({ account, subject, amountSantim }) => ({ account, subject, amountSantim }))
      .sort((a, b) => a.account.localeCompare(b.account)),
  }));
}

const planned = (hold: Hold) => {
  const plan = escrowReleased(hold);
  return { ...plan, paymentId: null, lines: [...plan.lines].sort((a, b) => a.account.localeCompare(b.account)) };
};

async function countWhere(table: typeof notifications | typeof auditLog, where: ReturnType<typeof and>) {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(table)
    .where(where);
  return row!.count;
}

describe("the scheduled release at scale", () => {
  it("releases 1,500 due holds in one call, once each, with the domain's entry for each and the books balanced", async () => {
    const { doctorIds, holds } = await seedHeld(1_500, ESCROW_RELEASE_AFTER_MS + HOUR_MS);
    const notDue = await seedHeld(3, ESCROW_RELEASE_AFTER_MS - 60_000);
    const told: string[] = [];

    const released = await releaseDueEscrows(db, new Date(), { onReleased: async (consultationId) => void told.push(consultationId) });

    expect(released).toBe(1_500);
    // Nobody watches these rooms: no room is asked.
    expect(told).toEqual([]);
    const written = await releaseEntriesOf(holds);
    expect(written).toHaveLength(1_500);
    const byKey = new Map(written.map((entry) => [entry.idempotencyKey, entry]));
    for (const hold of holds) expect(byKey.get(`consultation:${hold.consultationId}:released`)).toEqual(planned(hold));
    for (const [index, doctorId] of doctorIds.entries()) {
      const shares = holds.filter((_, at) => at % DOCTORS === index).map((hold) => splitRelease(hold.amountSantim).doctorSantim);
      expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-shares.reduce((sum, share) => sum + share, 0));
      expect(await countWhere(notifications, and(eq(notifications.userId, doctorId), eq(notifications.kind, "earnings_released")))).toBe(
        shares.length,
      );
    }
    expect(await countWhere(auditLog, eq(auditLog.action, "escrow.released"))).toBeGreaterThanOrEqual(1_500);
    const [books] = await db
      .select({
        journal: sql<number>`coalesce(sum(${ledgerLines.amountSantim}), 0)`,
        unbalanced: sql<number>`(SELECT count(*) FROM (SELECT ${ledgerLines.entryId} FROM ${ledgerLines} GROUP BY ${ledgerLines.entryId} HAVING sum(${ledgerLines.amountSantim}) <> 0))`,
      })
      .from(ledgerLines);
    expect(books).toEqual({ journal: 0, unbalanced: 0 });
    for (const hold of holds.slice(0, 50)) expect(await balanceOf(db, "escrow", hold.consultationId)).toBe(0);
    const [stillHeld] = await db
      .select({ count: sql<number>`count(*)` })
      .from(escrows)
      .where(
        and(
          eq(escrows.status, "held"),
          inArray(
            escrows.consultationId,
            notDue.holds.map((hold) => hold.consultationId),
          ),
        ),
      );
    expect(stillHeld!.count).toBe(3);

    // A second run finds nothing left to release.
    expect(await releaseDueEscrows(db, new Date())).toBe(0);
    expect(await releaseEntriesOf(holds)).toHaveLength(1_500);
  });

  it("releases each hold once for two calls at once", async () => {
    const { doctorIds, holds } = await seedHeld(2_200, ESCROW_RELEASE_AFTER_MS + HOUR_MS);
    const now = new Date();
    const [first, second] = await Promise.all([releaseDueEscrows(db, now), releaseDueEscrows(db, now)]);
    expect(first + second).toBe(2_200);
    expect(await releaseEntriesOf(holds)).toHaveLength(2_200);
    for (const [index, doctorId] of doctorIds.entries()) {
      const shares = holds.filter((_, at) => at % DOCTORS === index).map((hold) => splitRelease(hold.amountSantim).doctorSantim);
      expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-shares.reduce((sum, share) => sum + share, 0));
      expect(await countWhere(notifications, and(eq(notifications.userId, doctorId), eq(notifications.kind, "earnings_released")))).toBe(
        shares.length,
      );
    }
  });

  it("tells the rooms someone watches, and only those", async () => {
    const { holds } = await seedHeld(5, ESCROW_RELEASE_AFTER_MS + HOUR_MS);
    const watched = holds[2]!.consultationId;
    await env.DB.prepare(
      "INSERT INTO room_connections (room_class, room_name, connection_id, session_id, connected_at) VALUES ('ConsultationRoom', ?1, 'socket-1', 'session-1', ?2), ('ConsultationRoom', ?1, 'socket-2', 'session-2', ?2)",
    )
      .bind(watched, Date.now())
      .run();
    const told: string[] = [];
    await releaseDueEscrows(db, new Date(), { onReleased: async (consultationId) => void told.push(consultationId) });
    expect(told).toEqual([watched]);
  });
});

describe("the ledger's set-based writer", () => {
  it("refuses a set whose lines would not balance: the batch fails and writes nothing", async () => {
    const { holds } = await seedHeld(3, ESCROW_RELEASE_AFTER_MS + HOUR_MS);
    const ids = holds.map((hold) => hold.consultationId);
    const statements = ledgerEntryPerRowStatements(
      db,
      {
        from: escrows,
        where: inArray(escrows.consultationId, ids),
        idempotencyKey: sql<string>`'consultation:' || ${escrows.consultationId} || ':released'`,
        kind: "escrow_released",
        consultationId: escrows.consultationId,
        doctorId: escrows.doctorId,
        paymentId: null,
        lines: [
          { account: "escrow", subject: escrows.consultationId, amountSantim: sql<number>`${escrows.amountSantim}` },
          // A santim short.
          { account: "doctor_payable", subject: escrows.doctorId, amountSantim: sql<number>`-(${escrows.amountSantim} - 1)` },
        ],
      },
      new Date(),
    );
    await expect(
      db.batch([db.update(escrows).set({ updatedAt: new Date() }).where(inArray(escrows.consultationId, ids)), ...statements]),
    ).rejects.toThrow(/NOT NULL constraint failed: ledger_entries.idempotency_key/);
    expect(await releaseEntriesOf(holds)).toEqual([]);
  });
});

describe("the release's SQL says what the domain says", () => {
  it("splits as splitRelease does, to the santim", async () => {
    const amounts = [...AMOUNTS, 0, 4, 5, 74, 75, 76, 124, 125, 126, 100_000, 1_234_567, 987_654_321, 2 ** 40 + 3];
    for (const amount of amounts) {
      // Through an integer, as the release reads amount_santim.
      const [row] = await db.all<{ platform: number }>(sql`SELECT ${platformShareSql(sql`CAST(${amount} AS INTEGER)`)} AS platform`);
      expect(row!.platform, `${amount} santim`).toBe(splitRelease(amount).platformSantim);
    }
  });

  it("allows a release exactly where releaseRefusal does", async () => {
    const now = new Date();
    const due = now.getTime() - ESCROW_RELEASE_AFTER_MS;
    const completedAts = [null, due - 1, due, due + 1, now.getTime()];
    for (const by of ["patient", "schedule"] as const) {
      for (const status of ESCROW_STATUSES) {
        for (const consultationStatus of CONSULTATION_STATUSES) {
          for (const completedAt of completedAts) {
            const [row] = await db.all<{ allowed: number }>(
              sql`SELECT ${releaseAllowedSql(
                { status: sql`facts.status`, consultationStatus: sql`facts.consultation_status`, completedAt: sql`facts.completed_at` },
                by,
                now,
              )} AS allowed FROM (SELECT ${status} AS status, ${consultationStatus} AS consultation_status, ${completedAt} AS completed_at) AS facts`,
            );
            const refusal = releaseRefusal(
              { status, consultationStatus, completedAt: completedAt === null ? null : new Date(completedAt) },
              by,
              now,
            );
            expect(row!.allowed === 1, `${by} ${status} ${consultationStatus} ${completedAt}: ${refusal}`).toBe(refusal === null);
          }
        }
      }
    }
  });
});
