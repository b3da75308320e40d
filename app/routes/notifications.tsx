import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { SubmitButton } from "~/components/form-basics";
import { Pager } from "~/components/pager";
import { formatMoment } from "~/domain/dates";
import { isUuid } from "~/domain/ids";
import { isNotificationKind } from "~/domain/notifications";
import { pageRequest, toPage } from "~/domain/paging";
import { safeRedirectPath } from "~/domain/safe-redirect";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { requireRole } from "~/server/auth/guards.server";
import { markAllNotificationsRead, notificationsPage, openNotification, unreadNotificationCount } from "~/server/db/notifications.server";
import { readFormData } from "~/server/form-body.server";

const INTENTS = { open: "open", markAllRead: "mark-all-read" } as const;
/** A phone's screenful or two. */
const NOTIFICATIONS_PER_PAGE = 20;

// Patients and doctors (the guard on loader and action): what happened to their consultations while they were elsewhere, newest first, a page at a time.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireRole(args, "patient", "doctor");
  const { db } = args.context;
  const paging = pageRequest(new URL(args.request.url).searchParams, NOTIFICATIONS_PER_PAGE);
  const [fetched, unread, t] = await Promise.all([
    notificationsPage(db, user.userId, paging),
    unreadNotificationCount(db, user.userId),
    getTranslator(args.request),
  ]);
  const { rows, ...page } = toPage(fetched, paging, NOTIFICATIONS_PER_PAGE);
  return {
    title: pageTitle(t("notifications.title")),
    notifications: rows.flatMap((row) =>
      isNotificationKind(row.kind) ? [{ id: row.id, kind: row.kind, isRead: row.isRead, createdAt: row.createdAt.toISOString() }] : [],
    ),
    page,
    unread,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// Served as plain HTML (its texts stay on the server): links and forms need no script.
export const handle = staticPage;
export const clientLoader = loadAsDocument;

// Opening one marks it read and goes to its consultation; "mark all" clears the count. Someone else's id changes nothing.
export async function action(args: ActionFunctionArgs) {
  const user = await requireRole(args, "patient", "doctor");
  const { db } = args.context;
  const form = await readFormData(args.request);
  const intent = form.get("intent");
  if (intent === INTENTS.markAllRead) {
    await markAllNotificationsRead(db, user.userId);
    return redirect("/notifications");
  }
  const id = form.get("id");
  if (intent !== INTENTS.open || !isUuid(id)) throw new Response("Bad Request", { status: 400 });
  const opened = await openNotification(db, user.userId, id);
  if (!opened) throw new Response("Not Found", { status: 404 });
  return redirect(safeRedirectPath(opened.link, "/notifications"));
}

export default function Notifications() {
  const { t, i18n } = useTranslation();
  const { notifications, page, unread } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">{t("notifications.title")}</h1>
        {unread > 0 ? (
          <Form method="post">
            <SubmitButton name="intent" value={INTENTS.markAllRead} className="btn btn-sm btn-outline" busyLabel={t("forms.busy")}>
              {t("notifications.markAllRead")}
            </SubmitButton>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 ? <p>{t("notifications.empty")}</p> : null}
      <ul className="flex flex-col gap-2">
        {notifications.map((notification) => (
          <li
            key={notification.id}
            className={`card border ${notification.isRead ? "border-base-300" : "border-primary"}`}
            data-testid="notification"
          >
            <div className="card-body flex-row flex-wrap items-center justify-between gap-2 p-3">
              <div className="flex flex-col">
                <p className={notification.isRead ? "" : "font-bold"}>
                  {notification.isRead ? null : <span className="badge badge-primary badge-sm me-2">{t("notifications.new")}</span>}
                  {t(`notifications.kinds.${notification.kind}`)}
                </p>
                <time dateTime={notification.createdAt} className="text-sm text-base-content/80" suppressHydrationWarning>
                  {formatMoment(notification.createdAt, i18n.language)}
                </time>
              </div>
              <Form method="post">
                <input type="hidden" name="id" value={notification.id} />
                <button type="submit" name="intent" value={INTENTS.open} className="btn btn-sm btn-primary">
                  {t("notifications.view")}
                </button>
              </Form>
            </div>
          </li>
        ))}
      </ul>
      <Pager page={page.page} hasPrevious={page.hasPrevious} hasNext={page.hasNext} />
    </section>
  );
}
