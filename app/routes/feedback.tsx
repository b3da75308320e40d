import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { AuthCard } from "~/components/auth-card";
import { FieldErrors, FormAlert, SubmitButton } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
import { HoneypotField } from "~/components/honeypot-field";
import { ContactMessageSchema, MAX_CONTACT_MESSAGE_CHARS } from "~/domain/contact-message";
import { HONEYPOT_FIELD } from "~/domain/doctor-application";
import { lacksRequiredField, parseForm } from "~/forms";
import type { TextMessage } from "~/i18n";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { waitMessage } from "~/refusal-messages";
import { contactMessageLimits } from "~/server/auth/client-limits.server";
import { saveContactMessage } from "~/server/contact-form.server";
import { readFormData } from "~/server/form-body.server";
import { forgetRateLimitHits, takeAttempt } from "~/server/rate-limit.server";

const SENT = "sent";

// Public: the contact form. Messages are stored for admins (/admin/messages), not simulated.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  return { title: pageTitle(t("contact.title")), sent: new URL(request.url).searchParams.has(SENT) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ request, context }: ActionFunctionArgs) {
  const now = new Date();
  const formData = await readFormData(request);
  const submission = parseForm(formData, ContactMessageSchema);
  const refuse = (status: number, formError: TextMessage) =>
    data({ result: submission.reply({ hideFields: [HONEYPOT_FIELD] }), formError }, { status });
  if (formData.get(HONEYPOT_FIELD)) return refuse(400, { key: "contact.failed" });
  if (submission.status !== "success")
    return refuse(400, { key: lacksRequiredField(submission) ? "contact.missingFields" : "contact.checkFields" });
  const limit = await takeAttempt(context.db, contactMessageLimits(request), now);
  if (!limit.allowed) {
    // A refused attempt does not count: trying again too soon must not push the wait further out.
    await forgetRateLimitHits(context.db, limit.hitIds);
    return refuse(429, waitMessage(limit.retryAfterMs));
  }
  await saveContactMessage(context.db, request, submission.value, now);
  return redirect(`/feedback?${SENT}`, 303);
}

// Static (no hydration): a plain form that needs no script (docs/decisions/0014).
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function ContactPage() {
  const { t } = useTranslation();
  const { sent } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={t("contact.title")} intro={sent ? undefined : t("contact.intro")}>
      {sent ? (
        <div role="status" className="flex flex-col items-start gap-3" data-testid="contact-sent">
          <p className="font-bold">{t("contact.sentTitle")}</p>
          <p>{t("contact.sentBody")}</p>
          <Link to="/" className="btn btn-primary">
            {t("doctorApplication.returnHome")}
          </Link>
        </div>
      ) : (
        <ContactForm />
      )}
    </AuthCard>
  );
}

function ContactForm() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof ContactMessageSchema>>({ lastResult: actionData?.result });
  return (
    <>
      {actionData ? <FormAlert title={t("contact.errorTitle")} message={t(actionData.formError.key, actionData.formError.values)} /> : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <TextField meta={fields.name} label={t("contact.name")} autoComplete="name" />
        <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="email" />
        <TextField meta={fields.subject} label={t("contact.subject")} />
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.message.id} className="font-medium">
            {t("contact.message")}
          </label>
          <textarea
            {...getTextareaProps(fields.message, { ariaAttributes: true })}
            key={fields.message.key}
            rows={5}
            maxLength={MAX_CONTACT_MESSAGE_CHARS}
            className={`textarea w-full ${fields.message.errors ? "textarea-error" : ""}`}
          />
          <FieldErrors id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        <HoneypotField />
        <SubmitButton busyLabel={t("forms.busy")}>{t("contact.submit")}</SubmitButton>
      </Form>
    </>
  );
}
