import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";

import { ProfilePage } from "~/components/profile-page";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { handleProfileAction, loadProfile } from "~/server/profile.server";
import { telegramSummary } from "~/server/telegram/profile.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await requirePatient(args);
  const t = await getTranslator(args.request);
  return {
    title: pageTitle(t("profile.title")),
    profile: await loadProfile(args.context, user),
    // Worded on the server; Telegram has a page of its own.
    telegram: await telegramSummary(
      args.context.db,
      args.context.config,
      t,
      { userId: user.userId, role: "patient" },
      await detectLanguage(args.request),
    ),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const user = await requirePatient(args);
  return handleProfileAction(args.context, args.request, user);
}

export default function PatientProfile() {
  const { profile, telegram } = useLoaderData<typeof loader>();
  return (
    <ProfilePage profile={profile} actionData={useActionData<typeof action>()}>
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
    </ProfilePage>
  );
}
