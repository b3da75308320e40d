import { describe, expect, it } from "vitest";

import { chatSendRefusal, chatTextOf, hasChat, senderRoleIn } from "~/domain/chat";
import { chatRateCheck } from "~/domain/chat-rate";
import { MAX_CHAT_MESSAGE_CHARS } from "~/domain/constants";
import { mayUseChat } from "~/domain/consultation-access";
import { CONSULTATION_STATUSES } from "~/domain/consultation-status";

const parties = { patientId: "patient-1", doctorId: "doctor-1" };

describe("the chat's rules", () => {
  it("let only the consultation's patient and doctor send, and only while it is in progress", () => {
    for (const status of CONSULTATION_STATUSES) {
      const consultation = { ...parties, status };
      expect(chatSendRefusal(consultation, "patient-1"), status).toBe(status === "in_progress" ? null : "not_in_progress");
      expect(chatSendRefusal(consultation, "doctor-1"), status).toBe(status === "in_progress" ? null : "not_in_progress");
      expect(chatSendRefusal(consultation, "someone-else"), status).toBe("not_participant");
    }
    expect(chatSendRefusal({ patientId: "patient-1", doctorId: null, status: "in_progress" }, "someone-else")).toBe("not_participant");
    expect(senderRoleIn("patient-1", parties)).toBe("patient");
    expect(senderRoleIn("doctor-1", parties)).toBe("doctor");
    expect(senderRoleIn("doctor-2", parties)).toBeNull();
  });

  it("show a chat once paid for: open while in progress, readable once completed", () => {
    expect(CONSULTATION_STATUSES.filter(hasChat)).toEqual(["in_progress", "completed"]);
  });

  it("keep the chat, its photos included, to its two people (not admins, not other doctors)", () => {
    const consultation = { ...parties, status: "in_progress" as const };
    expect(mayUseChat({ userId: "patient-1", role: "patient", doctorStatus: null }, consultation)).toBe(true);
    expect(mayUseChat({ userId: "doctor-1", role: "doctor", doctorStatus: "active" }, consultation)).toBe(true);
    expect(mayUseChat({ userId: "doctor-1", role: "doctor", doctorStatus: "inactive" }, consultation)).toBe(false);
    expect(mayUseChat({ userId: "admin-1", role: "admin", doctorStatus: null }, consultation)).toBe(false);
    expect(mayUseChat({ userId: "doctor-2", role: "doctor", doctorStatus: "active" }, consultation)).toBe(false);
  });

  it("store a text trimmed and cleaned, refuse an empty one and one over 4,000 characters", () => {
    expect(MAX_CHAT_MESSAGE_CHARS).toBe(4000);
    expect(chatTextOf("  Hello\r\nthere \u202e ")).toEqual({ ok: true, text: "Hello\nthere" });
    for (const empty of ["", "   ", "\n\n", "\u200b\u200e"]) expect(chatTextOf(empty)).toEqual({ ok: false, refusal: "empty" });
    expect(chatTextOf("a".repeat(4000))).toEqual({ ok: true, text: "a".repeat(4000) });
    expect(chatTextOf("a".repeat(4001))).toEqual({ ok: false, refusal: "too_long" });
    // Counted as a person counts: an emoji is one character, and spaces around do not count.
    expect(chatTextOf(`  ${"😀".repeat(4000)}  `).ok).toBe(true);
    expect(chatTextOf("ሰ".repeat(4001))).toEqual({ ok: false, refusal: "too_long" });
  });
});

describe("the chat's rate", () => {
  it("lets 30 messages through in a minute, refuses the 31st, and forgets sends older than a minute", () => {
    const now = 1_000_000;
    const thirty = Array.from({ length: 30 }, (_, index) => now - 59_000 + index);
    expect(chatRateCheck(thirty.slice(0, 29), now).allowed).toBe(true);
    expect(chatRateCheck(thirty, now)).toEqual({ allowed: false, recent: thirty });
    const later = chatRateCheck(thirty, now + 1_000);
    expect(later.allowed).toBe(true);
    // The first send is now a minute old: 29 remain.
    expect(later.recent).toEqual(thirty.slice(1));
  });
});
