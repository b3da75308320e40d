import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { ConsultationList } from "~/components/consultation-list";
import { ConsultationTimeline } from "~/components/patient/consultation-timeline";
import { WaitingRequestItem } from "~/components/patient/waiting-request-item";
import { PendingPaymentItem } from "~/components/pending-payment-item";
import { useConsultationRoom } from "~/components/realtime/use-consultation-room";
import { DECLINED_SHOWN_ON_DASHBOARD_MS } from "~/domain/constants";
import { startAgainPath } from "~/domain/consultation-decisions";
import { minutesWaited } from "~/domain/consultation-request";
import type { ConsultationStatus } from "~/domain/consultation-status";
import { labelled } from "~/domain/label-colon";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { followedTimeline } from "~/server/consultation-timeline.server";
import { mostRecentChat, patientConsultations } from "~/server/db/consultation-lists.server";

const TABS = { active: "in_progress", awaiting: "pending", completed: "completed" } as const satisfies Record<string, ConsultationStatus>;
type Tab = keyof typeof TABS;

// Patients: their home. Everything here is their own, read from D1.
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request } = args;
  const now = new Date();
  const t = await getTranslator(request);
  const rows = await patientConsultations(context.db, patient.userId);
  const recent = await mostRecentChat(context.db, patient.userId, now);
  const tabParam = new URL(request.url).searchParams.get("tab");
  const tab: Tab = tabParam === "awaiting" || tabParam === "completed" ? tabParam : "active";
  const item = (row: (typeof rows)[number]) => ({
    id: row.id,
    title: row.title,
    status: row.status,
    priority: row.priority,
    createdAt: row.createdAt.toISOString(),
    declined: row.declineReason !== null,
  });
  const followed = await followedTimeline(context.db, t, await detectLanguage(request), patient.userId, rows);
  return {
    title: pageTitle(t("dashboard.title")),
    firstName: patient.firstName ?? "",
    tab,
    /** The consultation under way (else waiting, else the newest) and its timeline, live. */
    followed: followed && { ...followed, heading: t("timeline.followed") },
    pendingPayments: rows
      .filter((row) => row.status === "accepted_awaiting_payment" && row.paymentDeadlineAt)
      .map((row) => ({ id: row.id, title: row.title, deadline: row.paymentDeadlineAt!.toISOString() })),
    declined: rows
      .filter((row) => row.declineReason && row.cancelledAt && now.getTime() - row.cancelledAt.getTime() < DECLINED_SHOWN_ON_DASHBOARD_MS)
      .map((row) => ({ id: row.id, title: row.title, reason: row.declineReason! })),
    recentChat: recent ? { id: recent.id, title: recent.title, doctorFirstName: recent.doctorFirstName ?? "" } : null,
    activeChats: rows.filter((row) => row.status === "in_progress").length,
    upcoming: rows
      .filter((row) => row.status === "pending")
      .map((row) => ({ id: row.id, title: row.title, minutes: minutesWaited(row.createdAt, now) })),
    history: rows.filter((row) => row.status === TABS[tab]).map(item),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

function Card({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="card border border-base-300" data-testid={testId}>
      <div className="card-body gap-2 p-4">
        <h2 className="font-bold">{title}</h2>
        {children}
      </div>
    </div>
  );
}

/**
 * The timeline of the consultation the dashboard follows, moving live while more may happen to it; but
 * not while its chat is under way: a socket there would make the patient present in the chat (and keep
 * its new-message notifications from them). Its own page, where they chat, hears that part live.
 */
function FollowedTimeline({ followed }: { followed: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["followed"]> }) {
  const { status, goesOn } = followed.timeline;
  const live = useConsultationRoom(followed.id, status, { enabled: goesOn && status !== "in_progress" });
  return (
    <div className="card border border-base-300">
      <div className="card-body gap-2 p-4">
        <ConsultationTimeline
          heading={followed.heading}
          timeline={followed.timeline}
          room={live.room}
          // Compact: what happened and the one step next.
          listClassName="text-sm [&>[data-state=next]~[data-state=next]]:hidden"
        >
          <Link to={`/patient/consultation/${followed.id}`} className="link text-sm">
            {followed.title}
          </Link>
        </ConsultationTimeline>
      </div>
    </div>
  );
}

export default function PatientDashboard() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-5 px-4 py-6">
      <Link to="/" className="link self-start text-sm">
        {t("patientPages.back")}
      </Link>
      <h1 className="text-2xl font-bold" data-testid="dashboard-greeting">
        {t("dashboard.welcome", { name: data.firstName })}
      </h1>
      {data.followed ? <FollowedTimeline followed={data.followed} /> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Card title={t("patientPages.startNew")}>
          <p className="text-sm">{t("patientPages.startNewBody")}</p>
          <Link to="/patient/new-consultation" className="btn btn-primary btn-sm self-start" data-testid="start-new-consultation">
            {t("patientPages.startNew")}
          </Link>
        </Card>
        <Card title={t("patientPages.pendingPayments")} testId="pending-payments">
          {data.pendingPayments.length === 0 ? <p className="text-sm text-base-content/70">{t("patientPages.noPendingPayments")}</p> : null}
          <ul className="flex flex-col gap-2">
            {data.pendingPayments.map((payment) => (
              <PendingPaymentItem key={payment.id} id={payment.id} title={payment.title} deadline={payment.deadline} />
            ))}
          </ul>
        </Card>
        <Card title={t("patientPages.recentChat")}>
          {data.recentChat ? (
            <Link to={`/patient/consultation/${data.recentChat.id}`} className="link text-sm">
              {labelled(t("consultation.withDoctor", { name: data.recentChat.doctorFirstName }), data.recentChat.title)}
            </Link>
          ) : (
            <p className="text-sm text-base-content/70">{t("patientPages.noRecentChat")}</p>
          )}
        </Card>
        <Card title={t("patientPages.activeChats")}>
          <p className="text-3xl font-bold" data-testid="active-chats">
            {data.activeChats}
          </p>
        </Card>
        <Card title={t("patientPages.upcoming")} testId="upcoming">
          {data.upcoming.length === 0 ? <p className="text-sm text-base-content/70">{t("patientPages.noUpcoming")}</p> : null}
          <ul className="flex flex-col gap-1 text-sm">
            {data.upcoming.map((request) => (
              <WaitingRequestItem key={request.id} id={request.id} title={request.title} minutes={request.minutes} />
            ))}
          </ul>
        </Card>
        {data.declined.length ? (
          <Card title={t("patientPages.declined")} testId="declined-requests">
            <ul className="flex flex-col gap-3 text-sm">
              {data.declined.map((request) => (
                <li key={request.id} className="flex flex-col gap-1">
                  <Link to={`/patient/consultation/${request.id}`} className="link font-medium">
                    {request.title}
                  </Link>
                  <p>{t(`consultation.declineReasons.${request.reason}`)}</p>
                  <Link to={startAgainPath(request.id, request.reason)} className="btn btn-outline btn-xs self-start">
                    {t("patientPages.startNew")}
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        ) : null}
      </div>
      <section className="flex flex-col gap-3">
        <h2 className="text-xl font-bold">{t("patientPages.history")}</h2>
        <div role="tablist" className="tabs tabs-border">
          {(Object.keys(TABS) as Tab[]).map((tab) => (
            <Link
              key={tab}
              to={`?tab=${tab}`}
              role="tab"
              aria-selected={data.tab === tab}
              className={`tab ${data.tab === tab ? "tab-active" : ""}`}
              preventScrollReset
            >
              {t(`patientPages.tabs.${tab}`)}
            </Link>
          ))}
        </div>
        <ConsultationList items={data.history} hrefFor={(id) => `/patient/consultation/${id}`} empty={t("patientPages.noneInTab")} />
        <Link to="/patient/consultations" className="link self-start text-sm">
          {t("patientPages.allConsultations")}
        </Link>
      </section>
    </section>
  );
}
