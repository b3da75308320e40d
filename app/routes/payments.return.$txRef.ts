import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { requirePatient } from "~/server/auth/guards.server";
import { type ConfirmationOutcome, confirmPayment } from "~/server/consultations/confirm-payment.server";
import { paymentByTxRef } from "~/server/db/payments.server";
import { isTxRef } from "~/server/payments/start-payment.server";
import { deliverTidings } from "~/server/tidings.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Toast } from "~/toast";

// Where the provider sends the patient back after checkout. The return alone proves nothing: the
// payment is confirmed only by asking the provider (the same confirmation the webhook runs, so whichever
// arrives first moves the consultation and the other finds it done).
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const txRef = params.txRef;
  const payment = isTxRef(txRef) ? await paymentByTxRef(context.db, txRef) : null;
  if (!payment || payment.patientId !== patient.userId) throw new Response("Not Found", { status: 404 });

  const outcome = await confirmPayment(context.cloudflare.env, context.config, new URL(request.url).origin, payment.txRef, new Date());
  if (outcome.kind === "confirmed") await deliverTidings(context.db, context.config, outcome.outgoing, context);
  const { page, toast } = whereToAfter(outcome);
  return redirectWithToast(`/patient/${page}/${payment.consultationId}`, toast, context.config);
}

/** Paid (now or before): the consultation. Late: the consultation, told of the refund. Otherwise: back to pay. */
function whereToAfter(outcome: ConfirmationOutcome): { page: "consultation" | "payment"; toast: Toast } {
  switch (outcome.kind) {
    case "confirmed":
    case "already_confirmed":
      return { page: "consultation", toast: { kind: "success", title: "payment.received", description: "payment.receivedBody" } };
    case "late":
      return outcome.reason === "already_paid"
        ? { page: "consultation", toast: { kind: "info", title: "payment.duplicateTitle", description: "payment.duplicateBody" } }
        : { page: "consultation", toast: { kind: "info", title: "payment.lateTitle", description: "payment.lateBody" } };
    case "not_paid":
      if (outcome.status === "pending")
        return { page: "payment", toast: { kind: "info", title: "payment.pendingTitle", description: "payment.pendingBody" } };
      return { page: "payment", toast: { kind: "error", title: "payment.failedTitle", description: "payment.notCompleted" } };
    case "unknown":
    case "mismatch":
    case "flagged":
    case "unverified":
      return { page: "payment", toast: { kind: "error", title: "payment.failedTitle", description: "payment.notVerified" } };
  }
}
