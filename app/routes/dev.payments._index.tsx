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
import { latestSandboxRefunds } from "~/server/payments/sandbox-refunds.server";
import { sandboxSwitches, setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { latestSandboxTransfers } from "~/server/payments/sandbox-transfers.server";
import { requireStandIns } from "~/server/stand-ins.server";
import { redirectWithToast } from "~/server/toast.server";

const SHOWN_RECORDS = 50;

/** The one form of this page: which switch, set to what. */
const SwitchChoice = z.object({ switch: z.enum(SANDBOX_SWITCHES), setting: z.enum(SANDBOX_SWITCH_SETTINGS) });

// Development and tests only (404 in production): the payment sandbox's refunds and transfers, newest
// first, and the switches that decide how it answers the next ones.
export async function loader({ context, request }: LoaderFunctionArgs) {
  requireStandIns(context);
  const env = context.cloudflare.env;
  const [switches, refunds, transfers] = await Promise.all([
    sandboxSwitches(env),
    latestSandboxRefunds(env, SHOWN_RECORDS),
    latestSandboxTransfers(env, SHOWN_RECORDS),
  ]);
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("payment.sandbox.overview.title")),
    switches,
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
  const choice = SwitchChoice.safeParse(Object.fromEntries(await readFormData(request)));
  if (!choice.success) throw new Response("Bad Request", { status: 400 });
  await setSandboxSwitch(context.cloudflare.env, choice.data.switch, choice.data.setting);
  return redirectWithToast("/dev/payments", { kind: "success", title: "payment.sandbox.overview.saved" }, context.config);
}

export default function SandboxPayments() {
  const { t } = useTranslation();
  const { switches, refunds, transfers } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-8">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold">{t("payment.sandbox.overview.title")}</h1>
        <p className="text-base-content/80">{t("payment.sandbox.overview.intro")}</p>
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
function SwitchForm({ which, current }: { which: SandboxSwitch; current: SandboxSwitchSetting }) {
  const { t } = useTranslation();
  return (
    <Form method="post" reloadDocument className="card border border-base-300 p-4" data-testid={`sandbox-switch-${which}`}>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 font-bold">{t(`payment.sandbox.overview.switches.${which}`)}</legend>
        <input type="hidden" name="switch" value={which} />
        {SANDBOX_SWITCH_SETTINGS.map((setting) => (
          <label key={setting} className="flex items-start gap-2">
            <input
              type="radio"
              name="setting"
              value={setting}
              defaultChecked={setting === current}
              className="radio radio-primary radio-sm mt-0.5"
            />
            <span>{t(`payment.sandbox.overview.settings.${which}.${setting}`)}</span>
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
}: {
  reference: string;
  createdAt: string;
  testId: string;
  children: ReactNode;
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
