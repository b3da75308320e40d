import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AuthCard, InvalidLinkCard } from "~/components/auth-card";
import { EmailRequestForm } from "~/components/email-request-form";
import { SubmitButton } from "~/components/form-basics";
import { SIGN_IN_LINK_LIFETIME_MINUTES } from "~/domain/constants";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { recordAudit } from "~/server/audit.server";
import { sendAccountLinkTo } from "~/server/auth/account-links.server";
import { findUserById, markEmailConfirmed, revokeUnprovenCredentials } from "~/server/auth/accounts.server";
import { signInLinkLimits } from "~/server/auth/client-limits.server";
import { peekOneTimeLink, redeemOneTimeLink } from "~/server/auth/one-time-links.server";

import { handleEmailRequest } from "./email-request.server";
import { completeSignIn } from "./sign-in.server";

// Public: a way in by email for someone whose password attempts must wait (guessing from their
// network locks it for a while). Without a token it asks for the address; the emailed link (15
// minutes, once) leads back here with its token, and signing in takes a press of the button, so a
// mail scanner that opens links uses nothing up.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  if (token === null) {
    return { title: pageTitle(t("auth.signInLink.requestTitle")), usable: null, email: url.searchParams.get("email") ?? "" };
  }
  const usable = (await peekOneTimeLink(context.db, token, "sign_in", new Date())) !== null;
  const title = pageTitle(t(usable ? "auth.signInLink.useTitle" : "auth.links.invalidTitle"));
  return data({ title, usable, email: "" }, { status: usable ? 200 : 400 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// Static (no hydration), like the sign-in page it comes from.
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export async function action({ request, context }: ActionFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) return signInWithLink(context, request, token);
  return handleEmailRequest(
    context,
    request,
    (email) => signInLinkLimits(request, email),
    async (email, now) => {
      const userId = await sendAccountLinkTo("signIn", context, request, email, now);
      if (userId) {
        await recordAudit(context.db, request, {
          action: "auth.sign_in_link_requested",
          actorId: null,
          targetType: "user",
          targetId: userId,
        });
      }
    },
  );
}

/**
 * Uses the link up and signs its owner in (this browser becomes a known device). The link proved the
 * address: as with Google, a password set by whoever signed up with it unconfirmed is not theirs, so it goes.
 */
async function signInWithLink(context: ActionFunctionArgs["context"], request: Request, token: string) {
  const now = new Date();
  const userId = await redeemOneTimeLink(context.db, token, "sign_in", now);
  const user = userId ? await findUserById(context.db, userId) : undefined;
  if (!user) return data({ linkInvalid: true }, { status: 400 });
  if (!user.emailConfirmedAt) await revokeUnprovenCredentials(context, user.id);
  await markEmailConfirmed(context.db, user.id, now);
  return completeSignIn(context, request, user.id, { redirectTo: null, method: "email_link", email: user.email });
}

export default function SignInLink() {
  const { t } = useTranslation();
  const { usable, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const minutes = SIGN_IN_LINK_LIFETIME_MINUTES;
  if (usable === false || (actionData && "linkInvalid" in actionData)) {
    return <InvalidLinkCard newLink={{ to: "/sign-in-link", label: t("auth.signInLink.requestSubmit") }} />;
  }
  if (usable) {
    return (
      <AuthCard title={t("auth.signInLink.useTitle")} intro={t("auth.signInLink.useIntro")}>
        <Form method="post" className="flex flex-col">
          <SubmitButton busyLabel={t("forms.busy")}>{t("auth.signInLink.useSubmit")}</SubmitButton>
        </Form>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth.signInLink.requestTitle")} intro={t("auth.signInLink.requestIntro", { minutes })}>
      <EmailRequestForm
        actionData={actionData && "result" in actionData ? actionData : undefined}
        submitLabel={t("auth.signInLink.requestSubmit")}
        sentMessage={t("auth.signInLink.requestSent", { minutes })}
        defaultEmail={email}
      />
      <Link to="/login" className="link link-primary text-sm">
        {t("auth.reset.backToSignIn")}
      </Link>
    </AuthCard>
  );
}
