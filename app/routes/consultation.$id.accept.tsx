import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { eq } from "drizzle-orm";
import { useTranslation } from "react-i18next";

import { PriorityBadge } from "~/components/consultation-badges";
import { SubmitButton } from "~/components/form-fields";
import { consultations } from "~/db/schema";
import { uuidOrNull } from "~/domain/ids";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireUser, signOutInactiveDoctor } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session.server";
import { acceptConsultation } from "~/server/consultation-decisions.server";

type Oops = { oops: string };

/** Doctors only; others are told plainly. An inactive doctor is signed out like everywhere else. */
async function requireDoctorForLink(args: LoaderFunctionArgs): Promise<SessionUser | Oops> {
  const user = await requireUser(args);
  if (user.role !== "doctor") return { oops: "consultation.errors.noPermission" };
  if (user.doctorStatus !== "active") await signOutInactiveDoctor(args, user);
  return user;
}

// The link a doctor gets to accept a request. Opening it shows the request with one Accept button:
// accepting is a POST, so a link followed by accident (or planted on another site) accepts nothing.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireDoctorForLink(args);
  const t = await getTranslator(args.request);
  const title = pageTitle(t("consultation.acceptLink.title"));
  if ("oops" in doctor) return data({ title, oops: doctor.oops, request: null }, { status: 403 });
  const id = uuidOrNull(args.params.id);
  const consultation = id ? await args.context.db.query.consultations.findFirst({ where: eq(consultations.id, id) }) : undefined;
  if (consultation?.doctorId === doctor.userId) throw redirect(`/doctor/consultation/${id}`);
  if (!consultation) return data({ title, oops: "consultation.errors.notFound", request: null }, { status: 404 });
  if (consultation.status !== "pending")
    return data({ title, oops: "consultation.errors.alreadyAccepted", request: null }, { status: 409 });
  return { title, oops: null, request: { id: consultation.id, title: consultation.title, priority: consultation.priority } };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const doctor = await requireDoctorForLink(args);
  if ("oops" in doctor) return data({ oops: doctor.oops }, { status: 403 });
  const id = args.params.id ?? "";
  const outcome = await acceptConsultation(args.context, args.request, doctor, id);
  if (outcome.ok) throw redirect(`/doctor/consultation/${id}`);
  const consultation =
    outcome.reason === "not_found"
      ? undefined
      : await args.context.db.query.consultations.findFirst({ columns: { doctorId: true }, where: eq(consultations.id, id) });
  if (consultation?.doctorId === doctor.userId) throw redirect(`/doctor/consultation/${id}`);
  const oops =
    outcome.reason === "not_found"
      ? "consultation.errors.notFound"
      : outcome.reason === "already_taken"
        ? "consultation.errors.alreadyAccepted"
        : "consultation.errors.acceptFailed";
  return data({ oops }, { status: outcome.reason === "not_found" ? 404 : 409 });
}

export default function AcceptFromLink() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const oops = (actionData as Oops | undefined)?.oops ?? loaded.oops;
  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 px-4 py-10 text-center">
      {oops ? (
        <>
          <h1 className="text-2xl font-bold">{t("consultation.acceptLink.oops")}</h1>
          <p data-testid="oops-message">{t(oops as never)}</p>
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
