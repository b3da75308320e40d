import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FieldErrors, FormAlert, SubmitButton } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
import { HoneypotField } from "~/components/honeypot-field";
import { APPLICANT_CONTACT_BUSINESS_DAYS, HOME_AFTER_DOCTOR_REGISTRATION_MS, MAX_LICENCE_BYTES } from "~/domain/constants";
import { DoctorApplicationSchema, HONEYPOT_FIELD, MAX_EXPERIENCE_YEARS } from "~/domain/doctor-application";
import { lacksRequiredField, parseForm } from "~/forms";
import type { TextMessage } from "~/i18n";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { waitMessage } from "~/refusal-messages";
import { doctorApplicationLimits } from "~/server/auth/client-limits.server";
import { readFormData } from "~/server/form-body.server";
import { forgetRateLimitHits, takeAttempt } from "~/server/rate-limit.server";
import { submitApplication } from "~/server/registrations/apply.server";

/** A body larger than the largest licence and the fields around it is refused unread. */
const MAX_APPLICATION_BODY_BYTES = MAX_LICENCE_BYTES + 256 * 1024;
const SUBMITTED = "submitted";

// Public: a dermatologist applies to join; admins review it at /admin/doctor-registrations.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  const submitted = new URL(request.url).searchParams.has(SUBMITTED);
  // "Home by itself after 3 seconds", with or without JavaScript: the Refresh header every browser
  // follows. (The page says so in a status line; a <meta> refresh would do the same, and axe flags it.)
  const headers: HeadersInit = submitted ? { Refresh: `${HOME_AFTER_DOCTOR_REGISTRATION_MS / 1000}; url=/` } : {};
  return data({ title: pageTitle(t("doctorApplication.title")), submitted }, { headers });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const refresh = loaderHeaders.get("Refresh");
  return refresh ? { Refresh: refresh } : new Headers();
};

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

type Refusal = { result: ReturnType<ReturnType<typeof parseForm>["reply"]> | null; formError: TextMessage };
const refuse = (status: number, formError: TextMessage, result: Refusal["result"] = null) =>
  data<Refusal>({ result, formError }, { status });

export async function action({ request, context }: ActionFunctionArgs) {
  const now = new Date();
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_APPLICATION_BODY_BYTES)
    return refuse(413, { key: "doctorApplication.errors.licenceTooLarge", values: { megabytes: MAX_LICENCE_BYTES / 1024 / 1024 } });
  const formData = await readFormData(request);
  const submission = parseForm(formData, DoctorApplicationSchema);
  const reply = () => submission.reply({ hideFields: ["licence", HONEYPOT_FIELD] });
  if (formData.get(HONEYPOT_FIELD)) return refuse(400, { key: "doctorApplication.errors.failed" }, reply());
  if (submission.status !== "success") {
    const summary = lacksRequiredField(submission) ? "doctorApplication.errors.missingFields" : "doctorApplication.errors.checkFields";
    return refuse(400, { key: summary }, reply());
  }
  const limit = await takeAttempt(context.db, doctorApplicationLimits(request), now);
  if (!limit.allowed) {
    // A refused attempt does not count: trying again too soon must not push the wait further out.
    await forgetRateLimitHits(context.db, limit.hitIds);
    return refuse(429, waitMessage(limit.retryAfterMs), reply());
  }

  const outcome = await submitApplication(context, request, submission.value, await detectLanguage(request), now);
  if (!outcome.ok) {
    const status = outcome.reason === "alreadyPending" ? 409 : outcome.reason === "licenceTooLarge" ? 413 : 422;
    return refuse(
      status,
      { key: `doctorApplication.errors.${outcome.reason}`, values: { megabytes: MAX_LICENCE_BYTES / 1024 / 1024 } },
      reply(),
    );
  }
  // After the POST, a page of its own: reloading it sends nothing again.
  return redirect(`/register/doctor?${SUBMITTED}`, 303);
}

// Static (no hydration), like sign-up: the page works as plain HTML; its small script shows the chosen
// file's name and the busy label (docs/decisions/0014).
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function DoctorRegistration() {
  const { t } = useTranslation();
  const { submitted } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex w-full max-w-xl flex-col gap-4 px-4 py-8">
      <Link to="/" className="link link-hover self-start text-sm">
        ← {t("doctorApplication.backHome")}
      </Link>
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-4 p-5 sm:p-6">{submitted ? <Submitted /> : <ApplicationForm />}</div>
      </div>
    </section>
  );
}

function Submitted() {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex flex-col items-start gap-3" data-testid="registration-submitted">
      <h1 className="text-2xl font-bold">{t("doctorApplication.submittedTitle")}</h1>
      <p>{t("doctorApplication.submittedBody", APPLICANT_CONTACT_BUSINESS_DAYS)}</p>
      <p className="text-sm text-base-content/70">
        {t("doctorApplication.goingHome", { seconds: HOME_AFTER_DOCTOR_REGISTRATION_MS / 1000 })}
      </p>
      <Link to="/" className="btn btn-primary">
        {t("doctorApplication.returnHome")}
      </Link>
    </div>
  );
}

function ApplicationForm() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof DoctorApplicationSchema>>({ lastResult: actionData?.result ?? undefined });
  const experience = getInputProps(fields.experienceYears, { type: "number", ariaAttributes: true });
  const { key: licenceKey, ...licence } = getInputProps(fields.licence, { type: "file", ariaAttributes: true });
  const hintId = `${fields.licence.id}-hint`;
  return (
    <>
      <h1 className="text-2xl font-bold">{t("doctorApplication.title")}</h1>
      <p className="text-base-content/80">{t("doctorApplication.intro")}</p>
      {actionData ? (
        <FormAlert title={t("doctorApplication.errorTitle")} message={t(actionData.formError.key, actionData.formError.values)}>
          <p className="text-sm">{t("doctorApplication.chooseFileAgain")}</p>
        </FormAlert>
      ) : null}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="flex flex-col gap-4">
        <TextField meta={fields.fullName} label={t("doctorApplication.fullName")} autoComplete="name" />
        <TextField meta={fields.phone} label={t("forms.fields.phone")} type="tel" autoComplete="tel" hint={t("forms.hints.phone")} />
        <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="email" />
        <TextField meta={fields.cityCountry} label={t("doctorApplication.cityCountry")} autoComplete="address-level2" />
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.experienceYears.id} className="font-medium">
            {t("doctorApplication.experience")}
          </label>
          <input
            {...experience}
            key={experience.key}
            min={0}
            max={MAX_EXPERIENCE_YEARS}
            step={1}
            inputMode="numeric"
            className={`input w-full ${fields.experienceYears.errors ? "input-error" : ""}`}
          />
          <FieldErrors id={fields.experienceYears.errorId} errors={fields.experienceYears.errors} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.licence.id} className="font-medium">
            {t("doctorApplication.licence")}
          </label>
          <input
            {...licence}
            key={licenceKey}
            accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"
            aria-describedby={[hintId, fields.licence.errors ? fields.licence.errorId : null].filter(Boolean).join(" ")}
            data-chosen-name="licence-chosen"
            className={`file-input w-full ${fields.licence.errors ? "file-input-error" : ""}`}
          />
          <p id="licence-chosen" className="flex items-center gap-1 text-sm" data-testid="licence-chosen" hidden>
            <span aria-hidden="true" className="font-bold text-success">
              ✓
            </span>
            <span data-name="" />
          </p>
          <p id={hintId} className="text-sm text-base-content/70">
            {t("doctorApplication.licenceHint", { megabytes: MAX_LICENCE_BYTES / 1024 / 1024 })}
          </p>
          <FieldErrors id={fields.licence.errorId} errors={fields.licence.errors} />
        </div>
        <HoneypotField />
        <SubmitButton busyLabel={t("doctorApplication.submitting")}>{t("doctorApplication.submit")}</SubmitButton>
      </Form>
      <p className="text-sm text-base-content/70">{t("doctorApplication.footer", APPLICANT_CONTACT_BUSINESS_DAYS)}</p>
    </>
  );
}
