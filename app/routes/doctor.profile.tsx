import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";

import { ProfilePage } from "~/components/profile-page";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { cardSummary } from "~/server/doctor-card-settings.server";
import { payoutAccountSummary } from "~/server/money/payout-account.server";
import { telegramSummary } from "~/server/telegram/profile.server";

import { handleProfileAction, loadProfile } from "./profile.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireActiveDoctor(args);
  const t = await getTranslator(args.request);
  const telegram = await telegramSummary(
    args.context.db,
    args.context.config,
    t,
    { userId: user.userId, role: "doctor" },
    await detectLanguage(args.request),
  );
  return {
    title: pageTitle(t("profile.title")),
    profile: await loadProfile(args.context, user),
    // What patients read of the doctor before paying, where earnings go, and Telegram: each has a page of its own.
    sections: [
      await cardSummary(args.context.db, t, user.userId),
      { id: "payout-account", ...(await payoutAccountSummary(args.context.db, t, user.userId)) },
      ...(telegram ? [telegram] : []),
    ],
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const user = await requireActiveDoctor(args);
  return handleProfileAction(args.context, args.request, user);
}

export default function DoctorProfile() {
  const { profile, sections } = useLoaderData<typeof loader>();
  return (
    <ProfilePage profile={profile} actionData={useActionData<typeof action>()}>
      {/* Worded on the server; each form has a page of its own. */}
      {sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="card border border-base-300">
          <div className="card-body gap-2 p-4">
            <h2 id={`${section.id}-title`} className="card-title text-lg">
              {section.title}
            </h2>
            <p>{section.line}</p>
            <Link to={section.href} className="link">
              {section.change}
            </Link>
          </div>
        </section>
      ))}
    </ProfilePage>
  );
}
