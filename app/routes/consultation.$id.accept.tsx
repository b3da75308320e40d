import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { PriorityBadge } from "~/components/consultation-badges";
import { SubmitButton } from "~/components/form-basics";
import { type DecisionRefusal, refusalHttpStatus, whyNotWaiting } from "~/domain/consultation-decisions";
import { isReservedForAnother } from "~/domain/reservations";
import { getTranslator, pageTitle } from "~/i18n.server";
import { DECISION_REFUSAL_MESSAGES } from "~/refusal-messages";
import { requireUser, signOutInactiveDoctor } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session.server";
import { acceptConsultation } from "~/server/consultations/accept.server";
import { findConsultationById } from "~/server/db/consultations.server";

/** Doctors only; others are told plainly. An inactive doctor is signed out like everywhere else. */
async function requireDoctorForLink(args: LoaderFunctionArgs): Promise<SessionUser | null> {
  const user = await requireUser(args);
  if (user.role !== "doctor") return null;
  if (user.doctorStatus !== "active") await signOutInactiveDoctor(args, user);
  return user;
}

// The link a doctor gets to accept a request. Opening it shows the request with one Accept button:
// accepting is a POST, so a link followed by accident (or planted on another site) accepts nothing.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireDoctorForLink(args);
  const t = await getTranslator(args.request);
  const title = pageTitle(t("consultation.acceptLink.title"));
  const refused = (refusal: DecisionRefusal) => data({ title, refusal, request: null }, { status: refusalHttpStatus(refusal) });
  if (!doctor) return refused("not_permitted");
  const consultation = await findConsultationById(args.context.db, args.params.id);
  if (consultation?.doctorId === doctor.userId) throw redirect(`/doctor/consultation/${consultation.id}`);
  if (!consultation) return refused("not_found");
  if (consultation.status !== "pending") return refused(whyNotWaiting(consultation));
  if (isReservedForAnother(consultation, doctor.userId, new Date())) return refused("reserved");
  return data({ title, refusal: null, request: { id: consultation.id, title: consultation.title, priority: consultation.priority } });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const doctor = await requireDoctorForLink(args);
  if (!doctor) return data({ refusal: "not_permitted" as const }, { status: 403 });
  const id = args.params.id ?? "";
  const outcome = await acceptConsultation(args.context, args.request, doctor, id);
  if (outcome.ok) throw redirect(`/doctor/consultation/${id}`);
  // A second click after the first one won: the request is this doctor's, so go to it.
  const consultation = outcome.reason === "not_found" ? undefined : await findConsultationById(args.context.db, id);
  if (consultation?.doctorId === doctor.userId) throw redirect(`/doctor/consultation/${id}`);
  return data({ refusal: outcome.reason }, { status: refusalHttpStatus(outcome.reason) });
}

export default function AcceptFromLink() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refusal = actionData?.refusal ?? loaded.refusal;
  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 px-4 py-10 text-center">
      {refusal ? (
        <>
          <h1 className="text-2xl font-bold">{t("consultation.acceptLink.oops")}</h1>
          <p role="alert" data-testid="oops-message">
            {t(DECISION_REFUSAL_MESSAGES[refusal])}
          </p>
        </>
      ) : loaded.request ? (
        <>
          <h1 className="text-2xl font-bold">{t("consultation.acceptLink.title")}</h1>
          <div className="flex justify-center">
            <PriorityBadge priority={loaded.request.priority} />
          </div>
          <p className="font-medium">{loaded.request.title}</p>
          <Form method="post">
            <SubmitButton className="btn btn-primary w-full" busyLabel={t("forms.busy")}>
              {t("doctor.requests.accept")}
            </SubmitButton>
          </Form>
        </>
      ) : null}
      <Link to="/doctor/dashboard" className="btn btn-ghost">
        {t("consultation.acceptLink.goToDashboard")}
      </Link>
    </section>
  );
}
