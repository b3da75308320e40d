import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AuthCard } from "~/components/auth-card";
import { SetPasswordForm } from "~/components/set-password-form";
import { guestTexts } from "~/i18n";
import { getTranslator, pageTitle } from "~/i18n.server";

import { handleSetPassword, linkIsUsable } from "./set-password.server";

// Public: the link from a password reset email (one hour, once). Every session of the account ends.
// Its texts are the guest's, which a signed-in reader following an account link loads too.
export const handle = guestTexts;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  const usable = await linkIsUsable(context, request, "password_reset");
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return data({ title: pageTitle(t("auth.reset.title")), usable, token }, { status: usable ? 200 : 400 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ request, context }: ActionFunctionArgs) {
  return handleSetPassword(context, request, "password_reset");
}

export default function ResetPassword() {
  const { t } = useTranslation();
  const { usable, token } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={t("auth.reset.title")} intro={t("auth.reset.intro")}>
      <SetPasswordForm token={token} usable={usable} actionData={useActionData<typeof action>()} submitLabel={t("auth.reset.submit")} />
    </AuthCard>
  );
}
