import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";

import { PrivacySection } from "~/components/privacy-section";
import { ProfilePage } from "~/components/profile-page";
import { CLOSE_ACCOUNT_INTENT } from "~/domain/retention";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";
import { telegramSummary } from "~/server/telegram/profile.server";

import { handleCloseAccount, privacySection } from "./patient.profile.server";
import { handleProfileAction, loadProfile } from "./profile.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await requirePatient(args);
  const [t, language] = await Promise.all([getTranslator(args.request), detectLanguage(args.request)]);
  return {
    title: pageTitle(t("profile.title")),
    profile: await loadProfile(args.context, user),
    // Worded on the server; Telegram has a page of its own.
    telegram: await telegramSummary(args.context.db, args.context.config, t, { userId: user.userId, role: "patient" }, language),
    privacy: await privacySection(args.context, t, language, user),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const user = await requirePatient(args);
  // The closing form is told apart here; the profile's own forms read the body again themselves.
  const formData = await readFormData(args.request.clone() as Request);
  if (formData.get("intent") === CLOSE_ACCOUNT_INTENT) return handleCloseAccount(args.context, args.request, user, formData);
  return handleProfileAction(args.context, args.request, user);
}

export default function PatientProfile() {
  const { profile, telegram, privacy } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const closing = answer && "error" in answer ? answer : null;
  return (
    <ProfilePage profile={profile} actionData={answer && "result" in answer ? answer : undefined}>
      {telegram ? (
        <section id={telegram.id} aria-labelledby="telegram-title" className="card border border-base-300">
          <div className="card-body gap-2 p-4">
            <h2 id="telegram-title" className="card-title text-lg">
              {telegram.title}
            </h2>
            <p>{telegram.line}</p>
            <Link to={telegram.href} className="link">
              {telegram.change}
            </Link>
          </div>
        </section>
      ) : null}
      <PrivacySection words={privacy} answer={closing} />
    </ProfilePage>
  );
}
