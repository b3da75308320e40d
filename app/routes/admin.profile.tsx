import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";

import { ProfilePage } from "~/components/profile-page";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireAdmin } from "~/server/auth/guards.server";

import { handleProfileAction, loadProfile } from "./profile.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAdmin(args);
  const t = await getTranslator(args.request);
  return { title: pageTitle(t("profile.title")), profile: await loadProfile(args.context, user) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const user = await requireAdmin(args);
  return handleProfileAction(args.context, args.request, user);
}

export default function AdminProfile() {
  const { profile } = useLoaderData<typeof loader>();
  return <ProfilePage profile={profile} actionData={useActionData<typeof action>()} />;
}
