import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";

import { WordedPanel } from "~/components/worded-panel";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";

import { payoutAccountPanel, savePayoutAccountAction } from "./doctor.profile_.payout.server";

// Active doctors: where their earnings are paid (a bank or wallet from the provider's list, the name on
// the account and its number), part of their profile; a change is audited and emailed to them.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const t = await getTranslator(args.request);
  return {
    title: pageTitle(t("payouts.title")),
    back: t("payouts.back"),
    panel: await payoutAccountPanel(args, t, doctor.userId),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const formData = await readFormData(args.request);
  // Saved: a redirect with a toast (thrown); refused: the form again with its errors, in the doctor's words.
  return data({ panel: await savePayoutAccountAction(args, doctor, formData) }, { status: 400 });
}

export default function DoctorPayoutDetails() {
  const { back, panel } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-8">
      <Link to="/doctor/profile" className="link text-sm">
        {back}
      </Link>
      <WordedPanel {...(answer?.panel ?? panel)} headingLevel={1} />
    </section>
  );
}
