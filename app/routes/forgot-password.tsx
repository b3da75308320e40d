import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AuthCard } from "~/components/auth-card";
import { EmailRequestForm } from "~/components/email-request-form";
import { guestTexts } from "~/i18n";
import { getTranslator, pageTitle } from "~/i18n.server";
import { recordAudit } from "~/server/audit.server";
import { sendAccountLinkTo } from "~/server/auth/account-links.server";
import { resetLimits } from "~/server/auth/client-limits.server";

import { handleEmailRequest } from "./email-request.server";

// Public: asks for a password reset link (valid one hour, once).
// Its texts are the guest's, which a signed-in reader following an account link loads too.
export const handle = guestTexts;

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  return { title: pageTitle(t("auth.reset.requestTitle")) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ request, context }: ActionFunctionArgs) {
  return handleEmailRequest(
    context,
    request,
    (email) => resetLimits(request, email),
    async (email, now) => {
      const userId = await sendAccountLinkTo("reset", context, request, email, now);
      if (userId)
        await recordAudit(context.db, request, {
          action: "auth.password_reset_requested",
          actorId: null,
          targetType: "user",
          targetId: userId,
        });
    },
  );
}

export default function ForgotPassword() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t("auth.reset.requestTitle")} intro={t("auth.reset.requestIntro")}>
      <EmailRequestForm
        actionData={useActionData<typeof action>()}
        submitLabel={t("auth.reset.requestSubmit")}
        sentMessage={t("auth.reset.requestSent")}
      />
      <Link to="/login" className="link link-primary text-sm">
        {t("auth.reset.backToSignIn")}
      </Link>
    </AuthCard>
  );
}
