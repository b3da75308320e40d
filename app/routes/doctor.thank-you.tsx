import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { requireActiveDoctor } from "~/server/auth/guards.server";

// Doctors: where ending a consultation lands.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const t = await getTranslator(args.request);
  const name = doctor.firstName ?? "";
  return { title: pageTitle(t("doctor.thankYou.title", { name })), name };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// Served as plain HTML (its texts stay on the server): links and forms need no script.
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function DoctorThankYou() {
  const { t } = useTranslation();
  const { name } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      <h1 className="text-2xl font-bold" tabIndex={-1} data-focus-on-arrival>
        {t("doctor.thankYou.title", { name })}
      </h1>
      <p>{t("doctor.thankYou.body")}</p>
      <Link to="/doctor/dashboard" className="btn btn-primary">
        {t("doctor.thankYou.back")}
      </Link>
    </section>
  );
}
