import { describe, expect, it } from "vitest";

import { mayViewConsultation } from "~/domain/consultation-access";
import { planTransition } from "~/domain/consultation-status";
import {
  FOLLOW_UP_WINDOW_DAYS,
  followUpColumns,
  followUpOpenUntil,
  followUpPath,
  followUpRefusal,
  type FollowUpSource,
  newPhotosDaysOf,
  newPhotosDueAt,
} from "~/domain/follow-ups";
import { isReservedForAnother } from "~/domain/reservations";

const DAY_MS = 24 * 60 * 60_000;
const PATIENT = "patient-1";
const DOCTOR = "doctor-1";
const OTHER_DOCTOR = "doctor-2";
const ended = new Date("2026-11-01T09:00:00Z");
const daysAfter = (days: number, from = ended) => new Date(from.getTime() + days * DAY_MS);

const completed: FollowUpSource = { patientId: PATIENT, doctorId: DOCTOR, status: "completed", completedAt: ended, newPhotosDueAt: null };

describe("asking the doctor of a completed consultation again", () => {
  it("is open to its patient for 30 days after the end, while the doctor still takes consultations", () => {
    expect(FOLLOW_UP_WINDOW_DAYS).toBe(30);
    expect(followUpRefusal(completed, PATIENT, true, daysAfter(1))).toBeNull();
    expect(followUpRefusal(completed, PATIENT, true, daysAfter(30))).toBeNull();
    expect(followUpRefusal(completed, PATIENT, true, new Date(daysAfter(30).getTime() + 1))).toBe("too_late");
    expect(followUpRefusal(completed, PATIENT, false, daysAfter(1))).toBe("doctor_unavailable");
  });

  it("is for the consultation's own patient and a completed consultation only", () => {
    expect(followUpRefusal(completed, "patient-2", true, daysAfter(1))).toBe("not_found");
    expect(followUpRefusal(undefined, PATIENT, true, daysAfter(1))).toBe("not_found");
    for (const status of ["pending", "accepted_awaiting_payment", "in_progress", "cancelled"] as const)
      expect(followUpRefusal({ ...completed, status, completedAt: null }, PATIENT, true, daysAfter(1)), status).toBe("not_completed");
  });

  it("stays open 30 days after the day the doctor asked for new photos, when that is later", () => {
    const photosIn60Days = { ...completed, newPhotosDueAt: daysAfter(60) };
    expect(followUpOpenUntil(photosIn60Days)).toEqual(daysAfter(90));
    expect(followUpRefusal(photosIn60Days, PATIENT, true, daysAfter(61))).toBeNull();
    expect(followUpRefusal(photosIn60Days, PATIENT, true, daysAfter(91))).toBe("too_late");
    // A request for photos within the 30 days changes nothing.
    expect(followUpOpenUntil({ ...completed, newPhotosDueAt: daysAfter(3) })).toEqual(daysAfter(33));
  });

  it("is asked through the wizard, which carries the consultation it follows", () => {
    expect(followUpPath("abc")).toBe("/patient/new-consultation?followUp=abc");
  });
});

describe("a follow-up waiting for its own doctor", () => {
  const now = new Date("2026-11-02T10:00:00Z");
  const reserved = { status: "pending" as const, patientId: PATIENT, doctorId: null, ...followUpColumns("earlier", DOCTOR, now) };

  it("is kept for that doctor for the promised 10 minutes", () => {
    expect(reserved.reservedUntil.getTime() - now.getTime()).toBe(10 * 60_000);
    expect(isReservedForAnother(reserved, OTHER_DOCTOR, now)).toBe(true);
    expect(isReservedForAnother(reserved, DOCTOR, now)).toBe(false);
    expect(isReservedForAnother(reserved, OTHER_DOCTOR, reserved.reservedUntil)).toBe(false);
    // The lobby holds times as ms.
    expect(isReservedForAnother({ ...reserved, reservedUntil: reserved.reservedUntil.getTime() }, OTHER_DOCTOR, now.getTime())).toBe(true);
    expect(isReservedForAnother({ reservedForDoctorId: null, reservedUntil: null }, OTHER_DOCTOR, now)).toBe(false);
  });

  it("may be accepted or declined only by its own doctor until then, by anyone after", () => {
    const other = { kind: "user", userId: OTHER_DOCTOR, role: "doctor" } as const;
    const own = { kind: "user", userId: DOCTOR, role: "doctor" } as const;
    expect(planTransition(reserved, "accept", other, now)).toMatchObject({ ok: false, refusal: "reserved" });
    expect(planTransition(reserved, "decline", other, now)).toMatchObject({ ok: false, refusal: "reserved" });
    expect(planTransition(reserved, "accept", own, now)).toMatchObject({ ok: true });
    expect(planTransition(reserved, "accept", other, reserved.reservedUntil)).toMatchObject({ ok: true });
    // The patient may still withdraw it.
    expect(planTransition(reserved, "withdraw", { kind: "user", userId: PATIENT, role: "patient" }, now)).toMatchObject({ ok: true });
  });

  it("is seen only by its own doctor until then, by every active doctor after", () => {
    const viewer = (userId: string) => ({ userId, role: "doctor" as const, doctorStatus: "active" as const });
    expect(mayViewConsultation(viewer(OTHER_DOCTOR), reserved, now)).toBe(false);
    expect(mayViewConsultation(viewer(DOCTOR), reserved, now)).toBe(true);
    expect(mayViewConsultation(viewer(OTHER_DOCTOR), reserved, reserved.reservedUntil)).toBe(true);
  });
});

describe("the doctor's new photos in N days", () => {
  it("fall due N days after the end, and read back as N", () => {
    const due = newPhotosDueAt(14, ended);
    expect(due).toEqual(daysAfter(14));
    expect(newPhotosDaysOf(due, ended)).toBe(14);
    // Read back from a save a few minutes off (a payment that came after it), still N.
    expect(newPhotosDaysOf(due, new Date(ended.getTime() + 10 * 60_000))).toBe(14);
    expect(newPhotosDaysOf(null, ended)).toBeNull();
  });
});
