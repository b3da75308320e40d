import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type ChangeEvent, useState } from "react";

import { DoctorCardView } from "~/components/doctor-card";
import { SubmitButton } from "~/components/form-basics";
import { preparePhoto } from "~/components/request-wizard/downscale";
import { DOCTOR_PICTURE_LONG_SIDE_PX } from "~/domain/constants";
import { pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";

import { cardSettingsAction, cardSettingsPage } from "./doctor.profile_.card.server";

// Active doctors: what patients read of them before paying (part of their profile): the card as a
// patient sees it, their picture (upload, replace, remove) and the languages they consult in. Plain
// forms that work without JavaScript; with it, a chosen picture is made small in the browser first.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const page = await cardSettingsPage(args.context.db, args.request, doctor.userId);
  return { ...page, documentTitle: pageTitle(page.title) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.documentTitle }];

export async function action(args: ActionFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  return cardSettingsAction(args, doctor);
}

type Page = ReturnType<typeof useLoaderData<typeof loader>>;

export default function DoctorCardForPatients() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-8">
      <Link to="/doctor/profile" className="link self-start text-sm">
        {page.back}
      </Link>
      <h1 className="text-2xl font-bold">{page.title}</h1>
      <p>{page.intro}</p>
      {page.card ? <DoctorCardView card={page.card} /> : null}
      <PictureForm picture={page.picture} busy={page.busy} error={answer?.errors.picture} />
      <LanguagesForm
        languages={page.languages}
        busy={page.busy}
        chosen={answer?.chosen ?? page.languages.chosen}
        error={answer?.errors.languages}
      />
    </section>
  );
}

function PictureForm({ picture, busy, error }: { picture: Page["picture"]; busy: string; error?: string }) {
  const [preparing, setPreparing] = useState(false);
  // With JavaScript the chosen picture is redrawn small (dropping its EXIF data) and sent in its place.
  async function shrink(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setPreparing(true);
    const smaller = (await preparePhoto(file, DOCTOR_PICTURE_LONG_SIDE_PX)).photo;
    if (smaller !== file) {
      const files = new DataTransfer();
      files.items.add(new File([smaller], "picture.jpg", { type: smaller.type }));
      input.files = files.files;
    }
    setPreparing(false);
  }
  return (
    <section aria-labelledby="picture-title" className="card border border-base-300">
      <div className="card-body gap-3 p-4">
        <h2 id="picture-title" className="card-title text-lg">
          {picture.title}
        </h2>
        {picture.none ? <p>{picture.none}</p> : null}
        <Form method="post" encType="multipart/form-data" className="flex flex-col gap-2">
          <label htmlFor="picture" className="font-medium">
            {picture.label}
          </label>
          <input
            id="picture"
            name="picture"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            onChange={shrink}
            className="file-input w-full"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "picture-hint picture-error" : "picture-hint"}
          />
          <p id="picture-hint" className="text-sm text-base-content/70">
            {picture.hint}
          </p>
          {error ? (
            <p id="picture-error" className="text-sm text-error" role="alert">
              {error}
            </p>
          ) : null}
          <SubmitButton
            name="intent"
            value={picture.upload.intent}
            disabled={preparing}
            busyLabel={busy}
            className="btn btn-primary btn-sm self-start"
          >
            {preparing ? picture.upload.preparing : picture.upload.label}
          </SubmitButton>
        </Form>
        {picture.remove ? (
          <Form method="post">
            <SubmitButton name="intent" value={picture.remove.intent} busyLabel={busy} className="btn btn-outline btn-sm">
              {picture.remove.label}
            </SubmitButton>
          </Form>
        ) : null}
      </div>
    </section>
  );
}

function LanguagesForm({
  languages,
  busy,
  chosen,
  error,
}: {
  languages: Page["languages"];
  busy: string;
  chosen: string[];
  error?: string;
}) {
  return (
    <section aria-labelledby="languages-title" className="card border border-base-300">
      {/* Keyed by the choice, so the boxes show what was saved (or sent back) after each answer. */}
      <Form method="post" key={chosen.join(",")} className="card-body gap-3 p-4">
        <fieldset className="flex flex-col gap-2" aria-describedby={error ? "languages-hint languages-error" : "languages-hint"}>
          <legend id="languages-title" className="card-title text-lg">
            {languages.title}
          </legend>
          <p id="languages-hint" className="text-sm text-base-content/70">
            {languages.hint}
          </p>
          {languages.options.map((option) => (
            <label key={option.value} className="flex items-center gap-3">
              <input
                type="checkbox"
                name="languages"
                value={option.value}
                defaultChecked={chosen.includes(option.value)}
                className="checkbox checkbox-primary"
              />
              {option.label}
            </label>
          ))}
        </fieldset>
        {error ? (
          <p id="languages-error" className="text-sm text-error" role="alert">
            {error}
          </p>
        ) : null}
        <SubmitButton name="intent" value={languages.save.intent} busyLabel={busy} className="btn btn-primary btn-sm self-start">
          {languages.save.label}
        </SubmitButton>
      </Form>
    </section>
  );
}
