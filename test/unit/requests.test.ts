import { describe, expect, it } from "vitest";

import { minutesWaited, photoRefusal, sniffPhotoType, titleFromComplaint } from "~/domain/consultation-request";
import { type ConsultationOfPatient, groupByPatient } from "~/domain/my-patients";
import { byQueueOrder, type RequestSummary } from "~/realtime/protocol";

import { JPEG_BYTES } from "../workers/photos";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("photos", () => {
  it("are known by their bytes, not their names", () => {
    expect(sniffPhotoType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffPhotoType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe("image/png");
    expect(sniffPhotoType(new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))).toBe("image/webp");
    expect(sniffPhotoType(new TextEncoder().encode("<svg xmlns"))).toBeNull();
    expect(sniffPhotoType(bytes(0x4d, 0x5a))).toBeNull();
  });

  it("are refused when empty, over 5 MB, of another type, or an 11th", () => {
    const jpeg = JPEG_BYTES;
    expect(photoRefusal(1000, jpeg, 0)).toBeNull();
    // JPEG's magic bytes alone, with no frame to read a size from, are not a photo.
    expect(photoRefusal(1000, bytes(0xff, 0xd8, 0xff), 0)).toBe("photoWrongType");
    expect(photoRefusal(0, jpeg, 0)).toBe("photoEmpty");
    expect(photoRefusal(5 * 1024 * 1024 + 1, jpeg, 0)).toBe("photoTooLarge");
    expect(photoRefusal(5 * 1024 * 1024, jpeg, 0)).toBeNull();
    expect(photoRefusal(1000, bytes(0x00), 0)).toBe("photoWrongType");
    expect(photoRefusal(1000, jpeg, 10)).toBe("tooManyPhotos");
  });
});

describe("requests", () => {
  it("are titled by their complaint, cut to 100 characters, Amharic included", () => {
    expect(titleFromComplaint("  Itchy   rash \n on arms ")).toBe("Itchy rash on arms");
    expect(titleFromComplaint("ሽ".repeat(150))).toHaveLength(100);
  });

  it("count whole minutes waited", () => {
    expect(minutesWaited(new Date(0), new Date(125_000))).toBe(2);
  });

  it("queue by priority, then by waiting time", () => {
    const request = (id: string, priority: RequestSummary["priority"], waitingSince: number): RequestSummary => ({
      id,
      priority,
      waitingSince,
      title: id,
      patientFirstName: "",
      photoCount: 0,
      requestedDoctorCode: null,
      triage: { en: "", am: "" },
    });
    const sorted = [request("a", "normal", 1), request("b", "urgent", 5), request("c", "high", 2), request("d", "urgent", 3)].sort(
      byQueueOrder,
    );
    expect(sorted.map((item) => item.id)).toEqual(["d", "b", "c", "a"]);
  });
});

describe("My Patients", () => {
  const day = (n: number) => new Date(Date.UTC(2026, 10, n));
  const row = (
    patientId: string,
    status: ConsultationOfPatient["status"],
    created: number,
    diagnosis: string | null = null,
  ): ConsultationOfPatient => ({
    patientId,
    patientName: `Patient ${patientId}`,
    patientEmail: `${patientId}@example.com`,
    status,
    createdAt: day(created),
    completedAt: status === "completed" ? day(created + 1) : null,
    diagnosis,
  });

  it("groups consultations by patient with counts, derived standing and the latest real diagnosis", () => {
    const groups = groupByPatient([
      row("a", "completed", 1, "Eczema"),
      row("a", "completed", 5, "Contact dermatitis"),
      row("a", "in_progress", 8),
      row("b", "completed", 2, null),
      row("c", "pending", 3),
      row("c", "completed", 1, "Acne"),
    ]);
    expect(groups.map((group) => [group.patientId, group.standing, group.total, group.ongoing, group.completed])).toEqual([
      ["a", "ongoing", 3, 1, 2],
      ["c", "pending", 2, 0, 1],
      ["b", "completed", 1, 0, 1],
    ]);
    expect(groups[0]!.latestDiagnosis).toBe("Contact dermatitis");
    expect(groups[2]!.latestDiagnosis).toBeNull();
    expect(groups[0]!.lastConsultationAt).toEqual(day(8));
  });
});
