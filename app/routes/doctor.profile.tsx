import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";

import { ProfilePage } from "~/components/profile-page";
import { WordedPanel } from "~/components/worded-panel";
import { PAYOUT_ACCOUNT_INTENT } from "~/domain/payouts";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";
import { payoutAccountPanel, savePayoutAccountAction } from "~/server/money/payout-account.server";
import { handleProfileAction, loadProfile } from "~/server/profile.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireActiveDoctor(args);
  const t = await getTranslator(args.request);
  return {
    title: pageTitle(t("profile.title")),
    profile: await loadProfile(args.context, user),
    payoutAccount: await payoutAccountPanel(args, t, user.userId),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// The profile's own forms, and the payout details (where the doctor's earnings are sent).
export async function action(args: ActionFunctionArgs) {
  const user = await requireActiveDoctor(args);
  const formData = await readFormData(args.request.clone() as Request);
  if (formData.get("intent") === PAYOUT_ACCOUNT_INTENT)
    return data({ payoutAccount: await savePayoutAccountAction(args, user, formData) }, { status: 400 });
  return handleProfileAction(args.context, args.request, user);
}

export default function DoctorProfile() {
  const { profile, payoutAccount } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const payoutAnswer = actionData && "payoutAccount" in actionData ? actionData.payoutAccount : null;
  return (
    <ProfilePage
      profile={profile}
      actionData={payoutAnswer ? undefined : (actionData as Exclude<typeof actionData, { payoutAccount: unknown }>)}
    >
      <WordedPanel {...(payoutAnswer ?? payoutAccount)} />
    </ProfilePage>
  );
}
