import { describe, expect, it } from "vitest";

import * as constants from "~/domain/constants";
import { homePathForRole, ROLES } from "~/domain/roles";

describe("business constants", () => {
  it("state the product's numbers", () => {
    expect(constants.PAYMENT_WINDOW_MINUTES).toBe(15);
    expect(constants.DOCTOR_RESPONSE_PROMISE_MINUTES).toBe(10);
    expect(constants.MAX_PHOTO_BYTES).toBe(5 * 1024 * 1024);
    expect(constants.MAX_LICENCE_BYTES).toBe(10 * 1024 * 1024);
    expect(constants.PHOTO_CONTENT_TYPES).toEqual(["image/jpeg", "image/png", "image/webp"]);
    expect(constants.LICENCE_CONTENT_TYPES).toEqual(["application/pdf", "image/jpeg", "image/png"]);
    expect(constants.MAX_TITLE_CHARS).toBe(100);
    expect(constants.MIN_PASSWORD_CHARS).toBe(6);
    expect(constants.HOME_AFTER_DOCTOR_REGISTRATION_MS).toBe(3_000);
    expect(constants.PATIENT_TO_PAYMENT_AFTER_MATCH_MS).toBe(2_000);
    expect(constants.DOCTOR_TO_CONSULTATION_AFTER_DROPDOWN_ACCEPT_MS).toBe(1_000);
    expect(constants.DOCTOR_TO_CONSULTATION_AFTER_TOAST_ACCEPT_MS).toBe(500);
    expect(constants.ACCEPT_CONFIRMATION_SHOWN_MS).toBe(3_000);
  });

  it("shows a badge as 99+ above 99", () => {
    expect(constants.formatBadgeCount(0)).toBe("0");
    expect(constants.formatBadgeCount(99)).toBe("99");
    expect(constants.formatBadgeCount(100)).toBe("99+");
  });

  it("shows a consultation id by its first 8 characters", () => {
    expect(constants.formatConsultationId("0f8e2c1a-1111-4222-8333-944455556666")).toBe("0f8e2c1a");
  });
});

describe("roles", () => {
  it("knows the three roles and where each one's pages begin", () => {
    expect(ROLES).toEqual(["patient", "doctor", "admin"]);
    expect(ROLES.map(homePathForRole)).toEqual(["/patient/dashboard", "/doctor/dashboard", "/admin/dashboard"]);
  });
});
