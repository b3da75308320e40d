import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AuthCard } from "~/components/auth-card";
import { EmailRequestForm } from "~/components/email-request-form";
import { guestTexts } from "~/i18n";
import { getTranslator, pageTitle } from "~/i18n.server";
import { sendAccountLinkTo } from "~/server/auth/account-links.server";
import { resendLimits } from "~/server/auth/client-limits.server";

import { handleEmailRequest } from "./email-request.server";

// Public: a new confirmation link for an account that has not confirmed its email yet.
// Its texts are the guest's, which a signed-in reader following an account link loads too.
export const handle = guestTexts;

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  return { title: pageTitle(t("auth.confirm.resendTitle")) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ request, context }: ActionFunctionArgs) {
  return handleEmailRequest(
    context,
    request,
    (email) => resendLimits(request, email),
    async (email, now) => {
      await sendAccountLinkTo("confirm", context, request, email, now);
    },
  );
}

export default function ResendConfirmation() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  return (
    <AuthCard title={t("auth.confirm.resendTitle")} intro={t("auth.confirm.resendIntro")}>
      <EmailRequestForm
        actionData={useActionData<typeof action>()}
        submitLabel={t("auth.confirm.resendSubmit")}
        sentMessage={t("auth.confirm.resendSent")}
        defaultEmail={searchParams.get("email") ?? undefined}
      />
    </AuthCard>
  );
}
