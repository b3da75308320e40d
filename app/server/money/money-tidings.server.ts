// Telling people what happened to their money: a notification and, where it matters, an email in their
// own language, written in the same batch as the change (only if that change took), so a crash keeps
// the change and its news together or neither. The emails are delivered after the answer, or by the job.
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { TFunction } from "i18next";

import { notifications } from "~/db/schema";
import type { NotificationKind } from "~/domain/notifications";
import { getTranslatorFor } from "~/i18n.server";
import { afterResponse } from "~/server/after-response.server";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";
import { notificationRow } from "~/server/db/notifications.server";
import { contactOf } from "~/server/db/profiles.server";
import type { AppConfig } from "~/server/env.server";
import { deliverDueMail, type MailMessage, queuedMail } from "~/server/mail/mailer.server";
import { deliverDueTelegram } from "~/server/telegram/outbox.server";
import { queuedTelegram } from "~/server/telegram/queue.server";

export interface MoneyTidings {
  userId: string;
  consultationId: string | null;
  kind: NotificationKind;
  /** Where the notification leads (a path of the site). */
  link: string;
  mail: MailMessage | null;
}

type MailOf = (t: TFunction<"common">, to: { email: string; firstName: string }) => MailMessage;

/** What `userId` is told: a notification, and the email `mailOf` writes in their language (if any). */
export async function tidingsFor(
  db: Database,
  userId: string,
  notice: { kind: NotificationKind; consultationId: string | null; link: string },
  mailOf?: MailOf,
): Promise<MoneyTidings> {
  const contact = mailOf ? await contactOf(db, userId) : null;
  const mail = contact && mailOf ? mailOf(await getTranslatorFor(contact.language), contact) : null;
  return { userId, ...notice, mail };
}

/** The tidings as statements of the caller's batch, written only if `onlyIf` holds then; and the emails' outbox ids. */
export function tidingsStatements(db: Database, tidings: MoneyTidings[], now: Date, onlyIf: SQL) {
  const statements: Array<BatchItem<"sqlite">> = [];
  const mailIds: string[] = [];
  for (const told of tidings) {
    statements.push(insertWhere(db, notifications, notificationRow(told.userId, told.kind, told.consultationId, told.link, now), onlyIf));
    const telegram = queuedTelegram(
      db,
      { userId: told.userId, kind: told.kind, consultationId: told.consultationId, link: told.link },
      now,
      onlyIf,
    );
    if (telegram) statements.push(telegram);
    if (told.mail) {
      const queued = queuedMail(db, told.mail, now, onlyIf);
      statements.push(queued.statement);
      mailIds.push(queued.id);
    }
  }
  return { statements, mailIds };
}

/** Delivers the emails and Telegram messages a change queued: after the answer when a request made it, at once from a job. */
export async function deliverTidings(db: Database, config: AppConfig, mailIds: string[], request?: AppLoadContext) {
  const deliver = async () => {
    if (mailIds.length > 0) await deliverDueMail(db, config, new Date(), { ids: mailIds });
    await deliverDueTelegram(db, config, new Date());
  };
  if (request) afterResponse(request, "tidings", deliver);
  else await deliver();
}
