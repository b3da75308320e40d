import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";

import { InvalidLinkCard } from "~/components/auth-card";
import { guestTexts } from "~/i18n";
import { getTranslator, pageTitle } from "~/i18n.server";
import { recordAudit } from "~/server/audit.server";
import { markEmailConfirmed } from "~/server/auth/accounts.server";
import { redeemOneTimeLink } from "~/server/auth/one-time-links.server";
import { redirectWithToast } from "~/server/toast.server";

// Public: the link in the confirmation email. It works once; a used, expired or forged link says so.
// Its texts are the guest's, which a signed-in reader following an account link loads too.
export const handle = guestTexts;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const now = new Date();
  const userId = token ? await redeemOneTimeLink(context.db, token, "email_confirmation", now) : null;
  if (userId) {
    await markEmailConfirmed(context.db, userId, now);
    await recordAudit(context.db, request, { action: "auth.email_confirmed", actorId: userId, targetType: "user", targetId: userId });
    return redirectWithToast(
      "/login",
      { kind: "success", title: "auth.confirm.doneTitle", description: "auth.confirm.doneBody" },
      context.config,
    );
  }
  const t = await getTranslator(request);
  return data({ title: pageTitle(t("auth.links.invalidTitle")) }, { status: 400 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function ConfirmEmail() {
  const { t } = useTranslation();
  return <InvalidLinkCard newLink={{ to: "/auth/resend", label: t("auth.confirm.resendLink") }} />;
}
