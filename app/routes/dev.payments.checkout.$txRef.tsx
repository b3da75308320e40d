import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
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
  const returnUrl = await settleSandboxTransaction(context.config, context.cloudflare.env, params.txRef, OUTCOMES[choice]);
  if (!returnUrl) throw new Response("Not Found", { status: 404 });
  return redirect(returnUrl);
}

export default function SandboxCheckout() {
  const { t } = useTranslation();
  const { amountSantim, settled } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 px-4 py-8 text-center">
      <h1 className="text-2xl font-bold">{t("payment.sandbox.title")}</h1>
      <p className="text-base-content/80">{t("payment.sandbox.intro")}</p>
      <p className="text-lg">{t("payment.sandbox.amount", { amount: birrText(amountSantim) })}</p>
      {settled ? (
        <p role="status">{t("payment.sandbox.settled")}</p>
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
