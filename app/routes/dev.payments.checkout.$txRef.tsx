import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { SubmitButton } from "~/components/form-basics";
import { birrText } from "~/domain/money";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { readFormData } from "~/server/form-body.server";
import { settleSandboxTransaction } from "~/server/payments/sandbox.server";
import { sandboxTransaction } from "~/server/payments/sandbox-store.server";
import { isTxRef } from "~/server/payments/start-payment.server";
import { requireStandIns } from "~/server/stand-ins.server";

const OUTCOMES = { pay: "success", fail: "failed" } as const;

// Development and tests only (404 in production): the payment sandbox's checkout, in place of Chapa's.
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  requireStandIns(context);
  const transaction = isTxRef(params.txRef) ? await sandboxTransaction(context.cloudflare.env, params.txRef) : null;
  if (!transaction) throw new Response("Not Found", { status: 404 });
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("payment.sandbox.title")),
    amountSantim: transaction.amountSantim,
    settled: transaction.status !== "pending",
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// Served as plain HTML (its texts stay on the server): links and forms need no script.
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export async function action({ context, request, params }: ActionFunctionArgs) {
  requireStandIns(context);
  if (!isTxRef(params.txRef)) throw new Response("Not Found", { status: 404 });
  const choice = (await readFormData(request)).get("outcome");
  if (choice !== "pay" && choice !== "fail") throw new Response("Bad Request", { status: 400 });
  const origin = new URL(request.url).origin;
  const settled = await settleSandboxTransaction(context.config, context.cloudflare.env, params.txRef, OUTCOMES[choice], origin);
  if (settled === "not_found") throw new Response("Not Found", { status: 404 });
  // Its return or callback URL is another site's: neither the browser nor a webhook goes there.
  if (settled === "off_site") return data({ offSite: true }, { status: 400 });
  return redirect(settled.returnUrl);
}

export default function SandboxCheckout() {
  const { t } = useTranslation();
  const { amountSantim, settled } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 px-4 py-8 text-center">
      <h1 className="text-2xl font-bold">{t("payment.sandbox.title")}</h1>
      <p className="text-base-content/80">{t("payment.sandbox.intro")}</p>
      <p className="text-lg">{t("payment.sandbox.amount", { amount: birrText(amountSantim) })}</p>
      {settled ? (
        <p role="status">{t("payment.sandbox.settled")}</p>
      ) : refused?.offSite ? (
        <p role="alert" className="alert alert-error">
          {t("payment.sandbox.offSite")}
        </p>
      ) : (
        <Form method="post" reloadDocument className="flex flex-col gap-3">
          <SubmitButton name="outcome" value="pay" className="btn btn-primary" busyLabel={t("forms.busy")}>
            {t("payment.sandbox.pay")}
          </SubmitButton>
          <SubmitButton name="outcome" value="fail" className="btn btn-outline" busyLabel={t("forms.busy")}>
            {t("payment.sandbox.fail")}
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}
