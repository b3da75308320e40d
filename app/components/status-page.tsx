import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

type Message = { title: string; body: string };

/** The page shown for an error status: what went wrong, in the reader's language, and a way home. */
export function StatusPage({ status }: { status: number }) {
  const { t } = useTranslation();
  const messages: Record<number, Message> = {
    400: { title: t("pages.error.status", { status: 400 }), body: t("pages.error.badRequest") },
    401: { title: t("pages.error.status", { status: 401 }), body: t("pages.error.signInRequired") },
    403: { title: t("pages.accessDenied.title"), body: t("pages.accessDenied.body") },
    404: { title: t("pages.notFound.title"), body: t("pages.notFound.body") },
    405: { title: t("pages.error.status", { status: 405 }), body: t("pages.error.methodNotAllowed") },
  };
  const message = messages[status] ?? { title: t("pages.error.title"), body: t("pages.error.body") };
  return <MessagePage title={message.title} body={message.body} code={status} />;
}

export function MessagePage({ title, body, code }: { title: string; body: string; code?: number }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      {code ? (
        <p className="text-5xl font-bold text-primary" aria-hidden="true">
          {code}
        </p>
      ) : null}
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-base-content/80">{body}</p>
      <Link to="/" className="btn btn-primary">
        {t("pages.backHome")}
      </Link>
    </section>
  );
}
