import { labelColon } from "~/domain/label-colon";
import type { MailMessage } from "~/server/mail/mailer.server";

function escapeHtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** An email of plain paragraphs and action links, as text and as HTML. */
export function htmlEmail(to: string, subject: string, lines: string[], actions: Array<{ label: string; href: string }>): MailMessage {
  return {
    to,
    subject,
    text: [...lines, "", ...actions.map((action) => `${action.label}${labelColon(action.label)} ${action.href}`)].join("\n"),
    html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}${actions.map((action) => `<p><a href="${escapeHtml(action.href)}">${escapeHtml(action.label)}</a></p>`).join("")}`,
  };
}
