import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AdminListPage, SearchField, SearchForm } from "~/components/admin/list-page";
import { SubmitButton } from "~/components/form-basics";
import { formatMoment } from "~/domain/dates";
import { isUuid } from "~/domain/ids";
import { pageRequest, searchText, toPage } from "~/domain/paging";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { listContactMessages, markContactMessageRead } from "~/server/db/contact-messages.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";

// Admins: what people sent through the contact form (/feedback), newest first, a page at a time.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { request, context } = args;
  const params = new URL(request.url).searchParams;
  const search = searchText(params);
  const unreadOnly = params.get("unread") === "1";
  const page = pageRequest(params);
  const [t, language, rows] = await Promise.all([
    getTranslator(request),
    detectLanguage(request),
    listContactMessages(context.db, { search, unreadOnly, page }),
  ]);
  const shown = toPage(rows, page);
  return {
    title: pageTitle(t("admin.messages.title")),
    search,
    unreadOnly,
    ...shown,
    rows: shown.rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      subject: row.subject,
      message: row.message,
      sentAt: formatMoment(row.createdAt, language),
      read: row.readAt !== null,
    })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  const { request, context } = args;
  const form = await readFormData(request);
  const id = form.get("id");
  if (form.get("intent") !== "mark-read" || !isUuid(id)) throw new Response("Bad Request", { status: 400 });
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const marked = await markContactMessageRead(context.db, id, admin.userId, new Date());
  const toasts = {
    marked: { kind: "success", title: "admin.messages.markedRead" },
    already_read: { kind: "info", title: "admin.messages.alreadyRead" },
    not_found: { kind: "error", title: "badInput.noSuchRecord" },
  } as const;
  return redirectWithToast(`${url.pathname}${url.search}`, toasts[marked], context.config);
}

export default function AdminMessages() {
  const { t } = useTranslation();
  const { rows, search, unreadOnly, page, hasPrevious, hasNext } = useLoaderData<typeof loader>();
  return (
    <AdminListPage
      title={t("admin.messages.title")}
      intro={t("admin.messages.subtitle")}
      search={
        <SearchForm columns="sm:grid-cols-[1fr_auto_auto]" submitLabel={t("admin.search.submit")}>
          <SearchField label={t("admin.search.label")} name="q" defaultValue={search} />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="unread" value="1" defaultChecked={unreadOnly} className="checkbox checkbox-sm" />
            {t("admin.messages.unreadOnly")}
          </label>
        </SearchForm>
      }
      empty={rows.length > 0 ? null : search || unreadOnly ? t("admin.search.noResults") : t("admin.messages.empty")}
      paging={{ page, hasPrevious, hasNext }}
    >
      <ul className="flex flex-col gap-3">
        {rows.map((message) => (
          <li key={message.id}>
            <article
              aria-labelledby={`message-${message.id}`}
              className={`card border bg-base-100 ${message.read ? "border-base-300" : "border-primary"}`}
              data-testid="contact-message"
              data-read={message.read ? "yes" : "no"}
            >
              <div className="card-body gap-2 p-4">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <h2 id={`message-${message.id}`} className="font-bold">
                    {message.subject}
                  </h2>
                  {message.read ? null : <span className="badge badge-primary">{t("admin.messages.unread")}</span>}
                </div>
                <p className="text-sm text-base-content/70">
                  {t("admin.messages.from", { name: message.name, date: message.sentAt })}{" "}
                  <a href={`mailto:${message.email}`} className="link link-primary break-all">
                    {message.email}
                  </a>
                </p>
                <p className="whitespace-pre-line break-words">{message.message}</p>
                {message.read ? null : (
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="id" value={message.id} />
                    <SubmitButton name="intent" value="mark-read" className="btn btn-outline btn-sm" busyLabel={t("forms.busy")}>
                      {t("admin.messages.markRead")}
                    </SubmitButton>
                  </Form>
                )}
              </div>
            </article>
          </li>
        ))}
      </ul>
    </AdminListPage>
  );
}
