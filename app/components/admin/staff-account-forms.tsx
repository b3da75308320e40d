// The dashboard's two forms that add staff accounts: a doctor (with their licence) and an admin. Both
// post to the dashboard's action with their own intent and work without JavaScript; the account's
// owner gets an invite link by email, never a password from anyone.
import { type FieldMetadata, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FieldErrors, FormAlert, SubmitButton } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
import { useLazyValidation } from "~/components/forms/use-lazy-validation";
import { LICENCE_CONTENT_TYPES } from "~/domain/constants";
import type { AddAdminSchema, AddDoctorSchema } from "~/domain/staff-forms";
import { ADD_ADMIN_INTENT, ADD_DOCTOR_INTENT } from "~/domain/staff-intents";
import type { StaffFormAnswer } from "~/staff-form-answer";

const loadValidateAddDoctor = () => import("~/components/admin/validators").then((module) => module.validateAddDoctor);
const loadValidateAddAdmin = () => import("~/components/admin/validators").then((module) => module.validateAddAdmin);

/** A file picker bound to conform; the browser's own `accept` only narrows the picker, the server judges the bytes. */
export function FileField({
  meta,
  label,
  hint,
  accept,
}: {
  meta: FieldMetadata<File | undefined>;
  label: string;
  hint: string;
  accept: string;
}) {
  const { key, ...props } = getInputProps(meta, { type: "file", ariaAttributes: true });
  const hintId = `${meta.id}-hint`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={meta.id} className="font-medium">
        {label}
      </label>
      <input
        key={key}
        {...props}
        accept={accept}
        aria-describedby={[hintId, props["aria-describedby"]].filter(Boolean).join(" ")}
        className={`file-input w-full ${meta.errors ? "file-input-error" : ""}`}
      />
      <p id={hintId} className="text-sm text-base-content/70">
        {hint}
      </p>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** Who gets the invite, then why the last try made no account (if it did not). */
function InviteNote({ answer }: { answer: StaffFormAnswer | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="text-sm text-base-content/80">{t("admin.dashboard.inviteNote")}</p>
      {answer ? <FormAlert title={t(answer.failure)} message={t(answer.reason)} /> : null}
    </>
  );
}

/** Name, email and phone: the fields every staff account has. */
export function PersonFields({
  fields,
}: {
  fields: Record<"firstName" | "lastName" | "email" | "phone", FieldMetadata<string | null | undefined>>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField meta={fields.firstName} label={t("forms.fields.firstName")} autoComplete="off" />
        <TextField meta={fields.lastName} label={t("forms.fields.lastName")} autoComplete="off" />
      </div>
      <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="off" />
      <TextField meta={fields.phone} label={t("forms.fields.phone")} type="tel" autoComplete="off" hint={t("forms.hints.phone")} />
    </>
  );
}

/** The card every staff-account form is: a titled post form, its failure, its fields, one submit button. */
export function StaffAccountCard({
  formProps,
  onFocusCapture,
  multipart = false,
  title,
  alert,
  intent,
  submitLabel,
  busyLabel,
  children,
}: {
  formProps: ReturnType<typeof getFormProps>;
  onFocusCapture: () => void;
  multipart?: boolean;
  title: string;
  alert: ReactNode;
  intent: string;
  submitLabel: string;
  busyLabel: string;
  children: ReactNode;
}) {
  const titleId = `${formProps.id}-title`;
  return (
    <Form
      method="post"
      encType={multipart ? "multipart/form-data" : undefined}
      {...formProps}
      onFocusCapture={onFocusCapture}
      className="card border border-base-300"
      aria-labelledby={titleId}
    >
      <div className="card-body gap-4 p-5">
        <h2 id={titleId} className="card-title">
          {title}
        </h2>
        {alert}
        {children}
        <SubmitButton name="intent" value={intent} className="btn btn-primary self-start" busyLabel={busyLabel}>
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function AddDoctorForm({ answer }: { answer: StaffFormAnswer | undefined }) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof AddDoctorSchema>>(loadValidateAddDoctor);
  const [form, fields] = useForm({
    id: "add-doctor",
    lastResult: answer?.result,
    onValidate: validation.onValidate,
    shouldValidate: "onBlur",
  });
  return (
    <StaffAccountCard
      formProps={getFormProps(form)}
      onFocusCapture={validation.onFocusCapture}
      multipart
      title={t("admin.dashboard.addDoctor")}
      alert={<InviteNote answer={answer} />}
      intent={ADD_DOCTOR_INTENT}
      submitLabel={t("admin.dashboard.createDoctor")}
      busyLabel={t("admin.dashboard.creating")}
    >
      <PersonFields fields={fields} />
      <TextField
        meta={fields.specialty}
        label={t("admin.doctors.fields.specialty")}
        hint={t("admin.doctors.specialtyHint")}
        autoComplete="off"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField meta={fields.licenceNumber} label={t("admin.doctors.fields.licenceNumber")} autoComplete="off" />
        <TextField
          meta={fields.experienceYears}
          label={t("admin.doctors.fields.experienceYears")}
          type="number"
          min={0}
          max={99}
          step={1}
        />
      </div>
      <TextField meta={fields.licenceExpiresOn} label={t("admin.doctors.fields.licenceExpiresOn")} type="date" />
      <FileField
        meta={fields.licenceFile}
        label={t("admin.doctors.fields.licenceFile")}
        hint={t("admin.doctors.hints.licenceFile")}
        accept={[...LICENCE_CONTENT_TYPES, ".pdf", ".jpg", ".jpeg", ".png"].join(",")}
      />
    </StaffAccountCard>
  );
}

export function AddAdminForm({ answer }: { answer: StaffFormAnswer | undefined }) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof AddAdminSchema>>(loadValidateAddAdmin);
  const [form, fields] = useForm({
    id: "add-admin",
    lastResult: answer?.result,
    onValidate: validation.onValidate,
    shouldValidate: "onBlur",
  });
  return (
    <StaffAccountCard
      formProps={getFormProps(form)}
      onFocusCapture={validation.onFocusCapture}
      title={t("admin.dashboard.addAdmin")}
      alert={<InviteNote answer={answer} />}
      intent={ADD_ADMIN_INTENT}
      submitLabel={t("admin.dashboard.createAdmin")}
      busyLabel={t("admin.dashboard.creating")}
    >
      <PersonFields fields={fields} />
    </StaffAccountCard>
  );
}
