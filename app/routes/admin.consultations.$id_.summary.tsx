import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";

import { SummarySheet } from "~/components/summary-sheet";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { openingInForce } from "~/server/admin/opening-grant.server";
import { recordAudit } from "~/server/audit.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { summaryPage } from "~/server/summary-document.server";

// Admins: a completed consultation's printable summary, only within an opening (they said why they
// look, audited); without one, a word that the record's page asks for the reason first.
export async function loader(args: LoaderFunctionArgs) {
  const admin = await requireAdmin(args);
  const { context, request, params } = args;
  const consultation = await findConsultationById(context.db, params.id);
  if (!consultation || consultation.status !== "completed") throw new Response("Not Found", { status: 404 });
  if (!(await openingInForce(context.db, admin.userId, consultation.id, new Date()))) {
    const t = await getTranslator(request);
    const notOpened = {
      body: t("summaryDocument.openFirst"),
      link: t("summaryDocument.openRecord"),
      href: `/admin/consultations/${consultation.id}`,
    };
    return data({ title: pageTitle(t("summaryDocument.heading")), notOpened, sheet: null }, { status: 403 });
  }
  await recordAudit(context.db, request, {
    action: "consultation.viewed",
    actorId: admin.userId,
    targetType: "consultation",
    targetId: consultation.id,
  });
  const sheet = await summaryPage(context.db, request, consultation, `/admin/consultations/${consultation.id}`);
  return data({ title: sheet.title, notOpened: null, sheet });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function AdminConsultationSummary() {
  const { notOpened, sheet } = useLoaderData<typeof loader>();
  if (sheet) return <SummarySheet {...sheet} />;
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-3 px-4 py-8">
      <p>{notOpened?.body}</p>
      <Link to={notOpened?.href ?? "/admin/dashboard"} className="link">
        {notOpened?.link}
      </Link>
    </section>
  );
}
