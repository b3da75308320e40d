import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";

import { DocumentBrand } from "~/components/document-brand";
import { useHydrated } from "~/components/use-hydrated";
import { ESCROW_RELEASE_HOURS } from "~/domain/constants";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { patientReceipt } from "~/server/money/receipt.server";

// Patients: the printable receipt of one of their payments (anyone else's, an unpaid attempt or no such
// id is "not found"): what was paid, when, under which references, for which consultation, and where
// the money is now. Complete without JavaScript; the Print button comes with it.
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  const receipt = await patientReceipt(context.db, t, language, patient.userId, params.id ?? "");
  if (!receipt) throw new Response("Not Found", { status: 404 });
  // Worded here in the reader's language: the page ships none of its texts.
  const words = {
    title: t("receipt.title"),
    issuer: t("receipt.issuer"),
    amount: t("receipt.amount"),
    amountValue: t("receipt.amountValue", { amount: receipt.amount }),
    paidAt: t("receipt.paidAt"),
    txRef: t("receipt.txRef"),
    providerReference: t("receipt.providerReference"),
    noProviderReference: t("receipt.noProviderReference"),
    consultation: t("receipt.consultation"),
    consultationValue: t("receipt.consultationValue", { id: receipt.consultation.shortId, date: receipt.consultation.requestedOn }),
    state: t("receipt.state"),
    escrowMeans: t("receipt.escrowMeans", { hours: ESCROW_RELEASE_HOURS }),
    print: t("receipt.print"),
    back: t("receipt.back"),
  };
  return { title: pageTitle(words.title), receipt, words };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function PaymentReceipt() {
  const hydrated = useHydrated();
  const { receipt, words } = useLoaderData<typeof loader>();
  const consultationPath = `/patient/consultation/${receipt.consultation.id}`;
  return (
    <article className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-6 print:max-w-none print:px-0" data-testid="receipt">
      <header className="flex flex-col gap-1">
        <DocumentBrand className="text-lg font-bold text-primary" />
        <h1 className="text-2xl font-bold">{words.title}</h1>
        <p className="text-sm">{words.issuer}</p>
      </header>
      <dl className="flex flex-col gap-3 rounded-box border border-base-300 p-3">
        <Row label={words.amount}>
          <span className="text-lg font-bold" data-testid="receipt-amount">
            {words.amountValue}
          </span>
        </Row>
        <Row label={words.paidAt}>
          <time dateTime={receipt.paidAt.iso}>{receipt.paidAt.text}</time>
        </Row>
        <Row label={words.txRef}>
          <span className="break-all font-mono text-sm" data-testid="receipt-tx-ref">
            {receipt.txRef}
          </span>
        </Row>
        <Row label={words.providerReference}>
          {receipt.providerReference ? (
            <span className="break-all font-mono text-sm" data-testid="receipt-provider-reference">
              {receipt.providerReference}
            </span>
          ) : (
            words.noProviderReference
          )}
        </Row>
        <Row label={words.consultation}>
          <Link to={consultationPath} className="link">
            {words.consultationValue}
          </Link>
        </Row>
        {receipt.state ? (
          <Row label={words.state}>
            <span className="font-bold" data-testid="receipt-state">
              {receipt.state.label}
            </span>
            <span className="block" data-testid="receipt-state-line">
              {receipt.state.line}
            </span>
          </Row>
        ) : null}
      </dl>
      <p className="text-sm">{words.escrowMeans}</p>
      <div className="flex flex-wrap items-center gap-3 print:hidden">
        {/* Printing needs no script (the browser's own menu does it); the button only saves a step. */}
        {hydrated ? (
          <button type="button" className="btn btn-primary btn-sm" onClick={() => window.print()}>
            {words.print}
          </button>
        ) : null}
        <Link to={consultationPath} className="link">
          {words.back}
        </Link>
      </div>
    </article>
  );
}

/** One line of the receipt: what it is, and its value. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-sm text-base-content/80">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
