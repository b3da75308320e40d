import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";

import { When } from "~/components/admin/when";
import { SubmitButton } from "~/components/form-basics";
import { birrText } from "~/domain/money";
import { SANDBOX_SWITCH_SETTINGS, SANDBOX_SWITCHES, type SandboxSwitch, type SandboxSwitchSetting } from "~/domain/payment-sandbox";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { readFormData } from "~/server/form-body.server";
import { sandboxBalanceSantim, takeBackSandboxTransaction } from "~/server/payments/sandbox.server";
import { latestSandboxRefunds } from "~/server/payments/sandbox-refunds.server";
import { sandboxTransactions } from "~/server/payments/sandbox-store.server";
import { sandboxSwitches, setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { latestSandboxTransfers } from "~/server/payments/sandbox-transfers.server";
import { heldSandboxWebhookCount, sendHeldSandboxWebhooks } from "~/server/payments/sandbox-webhook.server";
import { requireStandIns } from "~/server/stand-ins.server";
import { redirectWithToast } from "~/server/toast.server";

const SHOWN_RECORDS = 50;

/** The forms of this page: a switch set to one of its settings; a paid transaction taken back; held webhooks sent. */
const SandboxForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("switch"), switch: z.enum(SANDBOX_SWITCHES), setting: z.string().max(40) }),
  z.object({ intent: z.literal("take-back"), txRef: z.string().min(1).max(100), how: z.enum(["refunded", "reversed"]) }),
  z.object({ intent: z.literal("send-webhooks") }),
]);

// Development and tests only (404 in production): the payment sandbox's switches, what it holds, its
// transactions (each may be refunded in "Chapa's dashboard" or charged back), refunds and transfers.
export async function loader({ context, request }: LoaderFunctionArgs) {
  requireStandIns(context);
  const env = context.cloudflare.env;
  const [switches, refunds, transfers, transactions, heldWebhooks, balanceSantim] = await Promise.all([
    sandboxSwitches(env),
    latestSandboxRefunds(env, SHOWN_RECORDS),
    latestSandboxTransfers(env, SHOWN_RECORDS),
    sandboxTransactions(env),
    heldSandboxWebhookCount(env),
    sandboxBalanceSantim(env),
  ]);
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("payment.sandbox.overview.title")),
    switches,
    heldWebhooks,
    balanceSantim,
    transactions: transactions.slice(0, SHOWN_RECORDS).map(({ txRef, amountSantim, status, createdAt }) => ({
      txRef,
      amountSantim,
      status,
      createdAt: new Date(createdAt).toISOString(),
    })),
    refunds: refunds.map(({ reference, txRef, amountSantim, status, createdAt }) => ({
      reference,
      txRef,
      amountSantim,
      status,
      createdAt: new Date(createdAt).toISOString(),
    })),
    transfers: transfers.map(({ reference, bankName, accountNumber, amountSantim, status, failureReason, createdAt }) => ({
      reference,
      to: `${bankName} ${accountNumber}`,
      amountSantim,
      status,
      failureReason,
      createdAt: new Date(createdAt).toISOString(),
    })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// Served as plain HTML (its texts stay on the server): the forms need no script.
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export async function action({ context, request }: ActionFunctionArgs) {
  requireStandIns(context);
  const form = SandboxForm.safeParse(Object.fromEntries(await readFormData(request)));
  if (!form.success) throw new Response("Bad Request", { status: 400 });
  const env = context.cloudflare.env;
  const done = (title: "saved" | "takenBack" | "webhooksSent" | "notTakenBack") =>
    redirectWithToast(
      "/dev/payments",
      { kind: title === "notTakenBack" ? "error" : "success", title: `payment.sandbox.overview.${title}` },
      context.config,
    );
  if (form.data.intent === "switch") {
    const which = form.data.switch;
    const settings: readonly string[] = SANDBOX_SWITCH_SETTINGS[which];
    if (!settings.includes(form.data.setting)) throw new Response("Bad Request", { status: 400 });
    await setSandboxSwitch(env, which, form.data.setting as SandboxSwitchSetting<typeof which>);
    return done("saved");
  }
  if (form.data.intent === "take-back")
    return done((await takeBackSandboxTransaction(context.config, env, form.data.txRef, form.data.how)) ? "takenBack" : "notTakenBack");
  await sendHeldSandboxWebhooks(context.config, env);
  return done("webhooksSent");
}

export default function SandboxPayments() {
  const { t } = useTranslation();
  const { switches, refunds, transfers, transactions, heldWebhooks, balanceSantim } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-8">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold">{t("payment.sandbox.overview.title")}</h1>
        <p className="text-base-content/80">{t("payment.sandbox.overview.intro")}</p>
        <p data-testid="sandbox-balance">{t("payment.sandbox.overview.balance", { amount: birrText(balanceSantim) })}</p>
      </div>

      <section aria-labelledby="sandbox-switches" className="flex flex-col gap-3">
        <h2 id="sandbox-switches" className="text-xl font-bold">
          {t("payment.sandbox.overview.switchesTitle")}
        </h2>
        <p>{t("payment.sandbox.overview.switchesIntro")}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          {SANDBOX_SWITCHES.map((which) => (
            <SwitchForm key={which} which={which} current={switches[which]} />
          ))}
        </div>
        <Form method="post" reloadDocument className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="send-webhooks" />
          <p>{t("payment.sandbox.overview.heldWebhooks", { count: heldWebhooks })}</p>
          <SubmitButton className="btn btn-outline btn-sm" busyLabel={t("forms.busy")} disabled={heldWebhooks === 0}>
            {t("payment.sandbox.overview.sendWebhooks")}
          </SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="sandbox-transactions" className="flex flex-col gap-3">
        <h2 id="sandbox-transactions" className="text-xl font-bold">
          {t("payment.sandbox.overview.transactionsTitle")}
        </h2>
        <p>{t("payment.sandbox.overview.transactionsIntro")}</p>
        {transactions.length === 0 ? <p>{t("payment.sandbox.overview.noTransactions")}</p> : null}
        <ol className="flex flex-col gap-3">
          {transactions.map((transaction) => (
            <MovementCard
              key={transaction.txRef}
              testId="sandbox-transaction"
              reference={transaction.txRef}
              createdAt={transaction.createdAt}
              actions={
                transaction.status === "success" ? (
                  <Form method="post" reloadDocument className="flex flex-wrap gap-2 px-4 pb-4">
                    <input type="hidden" name="intent" value="take-back" />
                    <input type="hidden" name="txRef" value={transaction.txRef} />
                    <SubmitButton name="how" value="refunded" className="btn btn-outline btn-sm" busyLabel={t("forms.busy")}>
                      {t("payment.sandbox.overview.refundInDashboard")}
                    </SubmitButton>
                    <SubmitButton name="how" value="reversed" className="btn btn-outline btn-sm" busyLabel={t("forms.busy")}>
                      {t("payment.sandbox.overview.chargeBack")}
                    </SubmitButton>
                  </Form>
                ) : null
              }
            >
              <Field label={t("payment.sandbox.overview.amount")}>
                {t("payment.sandbox.overview.amountValue", { amount: birrText(transaction.amountSantim) })}
              </Field>
              <Field label={t("payment.sandbox.overview.state")}>{transaction.status}</Field>
            </MovementCard>
          ))}
        </ol>
      </section>

      <section aria-labelledby="sandbox-refunds" className="flex flex-col gap-3">
        <h2 id="sandbox-refunds" className="text-xl font-bold">
          {t("payment.sandbox.overview.refundsTitle")}
        </h2>
        {refunds.length === 0 ? <p>{t("payment.sandbox.overview.noRefunds")}</p> : null}
        <ol className="flex flex-col gap-3">
          {refunds.map((refund) => (
            <MovementCard key={refund.reference} testId="sandbox-refund" reference={refund.reference} createdAt={refund.createdAt}>
              <Field label={t("payment.sandbox.overview.payment")}>{refund.txRef}</Field>
              <Field label={t("payment.sandbox.overview.amount")}>
                {t("payment.sandbox.overview.amountValue", { amount: birrText(refund.amountSantim) })}
              </Field>
              <Field label={t("payment.sandbox.overview.state")}>{t(`payment.sandbox.overview.refundStates.${refund.status}`)}</Field>
            </MovementCard>
          ))}
        </ol>
      </section>

      <section aria-labelledby="sandbox-transfers" className="flex flex-col gap-3">
        <h2 id="sandbox-transfers" className="text-xl font-bold">
          {t("payment.sandbox.overview.transfersTitle")}
        </h2>
        {transfers.length === 0 ? <p>{t("payment.sandbox.overview.noTransfers")}</p> : null}
        <ol className="flex flex-col gap-3">
          {transfers.map((transfer) => (
            <MovementCard key={transfer.reference} testId="sandbox-transfer" reference={transfer.reference} createdAt={transfer.createdAt}>
              <Field label={t("payment.sandbox.overview.to")}>{transfer.to}</Field>
              <Field label={t("payment.sandbox.overview.amount")}>
                {t("payment.sandbox.overview.amountValue", { amount: birrText(transfer.amountSantim) })}
              </Field>
              <Field label={t("payment.sandbox.overview.state")}>{t(`payment.sandbox.overview.transferStates.${transfer.status}`)}</Field>
              {transfer.failureReason ? <Field label={t("payment.sandbox.overview.reason")}>{transfer.failureReason}</Field> : null}
            </MovementCard>
          ))}
        </ol>
      </section>
    </section>
  );
}

/** One switch as a group of choices, saved with its own button (a plain form: no script needed). */
function SwitchForm<Which extends SandboxSwitch>({ which, current }: { which: Which; current: SandboxSwitchSetting<Which> }) {
  const { t } = useTranslation();
  const settings: readonly string[] = SANDBOX_SWITCH_SETTINGS[which];
  return (
    <Form method="post" reloadDocument className="card border border-base-300 p-4" data-testid={`sandbox-switch-${which}`}>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 font-bold">{t(`payment.sandbox.overview.switches.${which}`)}</legend>
        <input type="hidden" name="intent" value="switch" />
        <input type="hidden" name="switch" value={which} />
        {settings.map((setting) => (
          <label key={setting} className="flex items-start gap-2">
            <input
              type="radio"
              name="setting"
              value={setting}
              defaultChecked={setting === current}
              className="radio radio-primary radio-sm mt-0.5"
            />
            <span>{t(`payment.sandbox.overview.settings.${which}.${setting}` as "payment.sandbox.overview.settings.refunds.succeed")}</span>
          </label>
        ))}
        <SubmitButton className="btn btn-primary btn-sm self-start" busyLabel={t("forms.busy")}>
          {t("payment.sandbox.overview.save")}
        </SubmitButton>
      </fieldset>
    </Form>
  );
}

/** A refund or transfer as a card: its reference, when it was asked for, and its fields. */
function MovementCard({
  reference,
  createdAt,
  testId,
  children,
  actions,
}: {
  reference: string;
  createdAt: string;
  testId: string;
  children: ReactNode;
  /** What can be done with it, below its fields. */
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li className="card border border-base-300" data-testid={testId}>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 p-4 text-sm">
        <Field label={t("payment.sandbox.overview.reference")}>
          <span className="font-mono">{reference}</span>
        </Field>
        <Field label={t("payment.sandbox.overview.when")}>
          <When iso={createdAt} />
        </Field>
        {children}
      </dl>
      {actions}
    </li>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium">{label}</dt>
      <dd className="wrap-anywhere">{children}</dd>
    </>
  );
}
