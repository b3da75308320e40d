import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";

import { WordedPanel } from "~/components/worded-panel";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";
import { telegramPanels } from "~/server/telegram/profile.server";

import { telegramProfileAction } from "./telegram-profile.server";

// Patients: Telegram notifications, part of their profile. Linking goes through the bot's deep link
// with a one-time token; unlinking is here or /stop in the bot.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requirePatient(args);
  const t = await getTranslator(args.request);
  const language = await detectLanguage(args.request);
  return {
    title: pageTitle(t("telegram.profile.title")),
    back: t("telegram.profile.back"),
    panels: await telegramPanels(args.context.db, args.context.config, t, { userId: user.userId, role: "patient" }, language),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const user = await requirePatient(args);
  const form = await readFormData(args.request);
  const t = await getTranslator(args.request);
  return telegramProfileAction(
    args.context.db,
    args.context.config,
    t,
    { userId: user.userId, role: "patient" },
    form,
    "/patient/profile/telegram",
  );
}

export default function PatientTelegram() {
  const { back, panels } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-8">
      <Link to="/patient/profile" className="link text-sm">
        {back}
      </Link>
      {panels.map((panel, index) => (
        <WordedPanel key={panel.id} {...panel} headingLevel={index === 0 ? 1 : 2} />
      ))}
    </section>
  );
}
