import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";

import { ProfilePage } from "~/components/profile-page";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { payoutAccountSummary } from "~/server/money/payout-account.server";
import { handleProfileAction, loadProfile } from "~/server/profile.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireActiveDoctor(args);
  const t = await getTranslator(args.request);
  return {
    title: pageTitle(t("profile.title")),
    profile: await loadProfile(args.context, user),
    payout: await payoutAccountSummary(args.context.db, t, user.userId),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const user = await requireActiveDoctor(args);
  return handleProfileAction(args.context, args.request, user);
}

export default function DoctorProfile() {
  const { profile, payout } = useLoaderData<typeof loader>();
  return (
    <ProfilePage profile={profile} actionData={useActionData<typeof action>()}>
      {/* Where the doctor's earnings go: worded on the server; its form has a page of its own. */}
      <section id="payout-account" aria-labelledby="payout-account-title" className="card border border-base-300">
        <div className="card-body gap-2 p-4">
          <h2 id="payout-account-title" className="card-title text-lg">
            {payout.title}
          </h2>
          <p>{payout.line}</p>
          <Link to={payout.href} className="link">
            {payout.change}
          </Link>
        </div>
      </section>
    </ProfilePage>
  );
}
