import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AuthCard } from "~/components/auth-card";
import { SetPasswordForm } from "~/components/set-password-form";
import { guestTexts } from "~/i18n";
import { getTranslator, pageTitle } from "~/i18n.server";

import { handleSetPassword, linkIsUsable } from "./set-password.server";

// Public: the invite link an admin-created account receives (72 hours, once) to set its own password.
// Its texts are the guest's, which a signed-in reader following an account link loads too.
export const handle = guestTexts;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  const usable = await linkIsUsable(context, request, "invite");
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return data({ title: pageTitle(t("auth.invite.title")), usable, token }, { status: usable ? 200 : 400 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ request, context }: ActionFunctionArgs) {
  return handleSetPassword(context, request, "invite");
}

export default function AcceptInvite() {
  const { t } = useTranslation();
  const { usable, token } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={t("auth.invite.title")} intro={t("auth.invite.intro")}>
      <SetPasswordForm token={token} usable={usable} actionData={useActionData<typeof action>()} submitLabel={t("auth.invite.submit")} />
    </AuthCard>
  );
}
