import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { SubmitButton } from "~/components/form-basics";
import { formatMoment } from "~/domain/dates";
import { isUuid } from "~/domain/ids";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { recordAudit } from "~/server/audit.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";
import { retryMail, undeliveredMail } from "~/server/mail/mailer.server";
import { undeliveredTelegram } from "~/server/telegram/outbox.server";
import { redirectWithToast } from "~/server/toast.server";

/** The most messages the page lists: a handful is already an outage to look into. */
const SHOWN_MESSAGES = 100;

// Admins: email the outbox could not deliver (given up after its retries) or still waiting after an
// hour, with the provider's last answer; a failed message can be tried again (docs/decisions/0023).
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { request, context } = args;
  const now = new Date();
  const [t, language, rows, telegramRows] = await Promise.all([
    getTranslator(request),
    detectLanguage(request),
    undeliveredMail(context.db, now, SHOWN_MESSAGES),
    undeliveredTelegram(context.db, now, SHOWN_MESSAGES),
  ]);
  return {
    title: pageTitle(t("admin.mail.title")),
    // Worded here (docs/decisions/0035): Telegram messages not sent, each a line.
    telegram: {
      title: t("telegram.admin.title"),
      empty: t("telegram.admin.empty"),
      lines: telegramRows.map((row) => ({
        id: row.id,
        text: t(row.status === "failed" ? "telegram.admin.failedLine" : "telegram.admin.waitingLine", {
          kind: row.kind,
          user: row.userId,
          count: row.attempts,
          date: formatMoment(row.createdAt, language),
        }),
        lastError: row.lastError,
      })),
    },
    rows: rows.map((row) => ({
      id: row.id,
      toEmail: row.toEmail,
      subject: row.subject,
      failed: row.status === "failed",
      attempts: row.attempts,
      lastError: row.lastError,
      queuedAt: formatMoment(row.createdAt, language),
    })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  const { request, context } = args;
  const form = await readFormData(request);
  const id = form.get("id");
  if (form.get("intent") !== "retry" || !isUuid(id)) throw new Response("Bad Request", { status: 400 });
  const retried = await retryMail(context.db, id, new Date());
  if (retried === "retried") {
    await recordAudit(context.db, request, { action: "admin.mail_retried", actorId: admin.userId, targetType: "mail", targetId: id });
  }
  const toasts = {
    retried: { kind: "success", title: "admin.mail.retried" },
    not_failed: { kind: "info", title: "admin.mail.notFailed" },
    not_found: { kind: "error", title: "badInput.noSuchRecord" },
  } as const;
  return redirectWithToast("/admin/mail", toasts[retried], context.config);
}

export default function AdminMail() {
  const { t } = useTranslation();
  const { rows, telegram } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-5 px-4 py-6">
      <header>
        <h1 className="text-2xl font-bold">{t("admin.mail.title")}</h1>
        <p className="text-base-content/80">{t("admin.mail.subtitle")}</p>
      </header>
      {rows.length === 0 ? (
        <p className="text-base-content/70">{t("admin.mail.empty")}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {rows.map((mail) => (
            <li key={mail.id}>
              <article
                aria-labelledby={`mail-${mail.id}`}
                className="card border border-base-300 bg-base-100"
                data-testid="undelivered-mail"
              >
                <div className="card-body gap-2 p-4">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <h2 id={`mail-${mail.id}`} className="break-words font-bold">
                      {mail.subject}
                    </h2>
                    <span className={`badge ${mail.failed ? "badge-error" : "badge-warning"}`}>
                      {mail.failed ? t("admin.mail.failed") : t("admin.mail.waiting")}
                    </span>
                  </div>
                  <p className="break-all text-sm">{t("admin.mail.to", { email: mail.toEmail })}</p>
                  <p className="text-sm text-base-content/70">{t("admin.mail.attempts", { count: mail.attempts, date: mail.queuedAt })}</p>
                  {mail.lastError ? <p className="break-words font-mono text-xs text-base-content/80">{mail.lastError}</p> : null}
                  {mail.failed ? (
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="id" value={mail.id} />
                      <SubmitButton name="intent" value="retry" className="btn btn-outline btn-sm" busyLabel={t("forms.busy")}>
                        {t("admin.mail.retry")}
                      </SubmitButton>
                    </Form>
                  ) : null}
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="telegram-undelivered" className="flex flex-col gap-2">
        <h2 id="telegram-undelivered" className="text-xl font-bold">
          {telegram.title}
        </h2>
        {telegram.lines.length === 0 ? <p className="text-base-content/70">{telegram.empty}</p> : null}
        <ul className="flex flex-col gap-2">
          {telegram.lines.map((line) => (
            <li key={line.id} className="break-words text-sm" data-testid="undelivered-telegram">
              {line.text}
              {line.lastError ? <span className="block font-mono text-xs text-base-content/80">{line.lastError}</span> : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
