import { describe, expect, it } from "vitest";

import { type LobbyEvent } from "~/realtime/protocol";

import { Visitor } from "./browser-like";
import { createConsultation, createUser, INTAKE_FORM, signedIn } from "./fixtures";
import { openLobbySocket } from "./sockets";

/** A new active doctor's lobby socket, with the doctor. */
async function doctorSocket() {
  const doctor = await signedIn("doctor");
  return { ...(await openLobbySocket(doctor.cookie)), doctor };
}

describe("the doctors' lobby", () => {
  it("gives each connecting doctor the whole queue, most pressing first", async () => {
    const patientId = await createUser("patient");
    const normal = await createConsultation(patientId, "pending", { priority: "normal", title: "Old normal" });
    const urgent = await createConsultation(patientId, "pending", { priority: "urgent", title: "New urgent" });
    const { events, until, socket } = await doctorSocket();
    await until((all) => all.some((event) => event.type === "queue"));
    const queue = events.find((event) => event.type === "queue");
    const ids = queue?.type === "queue" ? queue.requests.map((request) => request.id) : [];
    expect(ids.indexOf(urgent.id)).toBeLessThan(ids.indexOf(normal.id));
    socket.close(1000, "done");
  });

  it("pushes a submitted request to every doctor with its summary, and removes it once accepted", async () => {
    const first = await doctorSocket();
    const second = await doctorSocket();
    const patient = await signedIn("patient");
    await new Visitor(patient.cookie).post("/patient/new-consultation?step=2", {
      intent: "submit",
      ...INTAKE_FORM,
      chiefComplaint: "<script>alert(1)</script> Rash",
      priority: "high",
      doctorCode: "",
    });
    const added = (events: LobbyEvent[]) => events.find((event) => event.type === "request_added");
    await first.until((events) => added(events) !== undefined);
    await second.until((events) => added(events) !== undefined);
    const event = added(first.events);
    expect(event?.type === "request_added" && event.request).toMatchObject({
      title: "<script>alert(1)</script> Rash",
      priority: "high",
      patientFirstName: "Test",
      photoCount: 0,
      requestedDoctorCode: null,
    });
    const id = event?.type === "request_added" ? event.request.id : "";
    await new Visitor(first.doctor.cookie).post(`/doctor/consultation/${id}`, { intent: "accept" });
    const removed = (events: LobbyEvent[]) => events.some((item) => item.type === "request_removed" && item.id === id);
    await first.until(removed);
    await second.until(removed);
    first.socket.close(1000, "done");
    second.socket.close(1000, "done");
  });
});
