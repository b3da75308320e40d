import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useSearchParams } from "@remix-run/react";
import { eq } from "drizzle-orm";
import { useTranslation } from "react-i18next";

import { AuthCard } from "~/components/auth-card";
import { EmailRequestForm } from "~/components/email-request-form";
import { profiles } from "~/db/schema";
import { getTranslator, pageTitle } from "~/i18n.server";
import { sendAccountLink } from "~/server/auth/account-links.server";
import { findUserByEmail } from "~/server/auth/accounts.server";
import { resendLimits } from "~/server/auth/client-limits.server";
import { handleEmailRequest } from "~/server/auth/email-request.server";

// Public: a new confirmation link for an account that has not confirmed its email yet.
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
      const user = await findUserByEmail(context.db, email);
      if (!user || user.emailConfirmedAt) return;
      const profile = await context.db.query.profiles.findFirst({ where: eq(profiles.userId, user.id) });
      await sendAccountLink(
        "confirm",
        context,
        request,
        { userId: user.id, email, firstName: profile?.firstName ?? "", language: profile?.preferredLanguage ?? "en" },
        now,
      );
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
