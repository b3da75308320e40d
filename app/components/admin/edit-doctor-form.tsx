// The admin's form for a doctor's details and profile picture; it works without JavaScript.
import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FileField } from "~/components/admin/staff-account-forms";
import { FormAlert, SubmitButton, TextField } from "~/components/form-fields";
import { useLazyValidation } from "~/components/forms/use-lazy-validation";
import { PHOTO_CONTENT_TYPES } from "~/domain/constants";
import type { EditDoctorSchema } from "~/domain/staff-forms";
import { UPDATE_DOCTOR_INTENT } from "~/domain/staff-intents";

const loadValidateEditDoctor = () => import("~/components/admin/validators").then((module) => module.validateEditDoctor);

interface DoctorDetails {
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  specialty: string;
}

export function EditDoctorForm({ doctor, lastResult }: { doctor: DoctorDetails; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof EditDoctorSchema>>(loadValidateEditDoctor);
  const [form, fields] = useForm({
    id: "edit-doctor",
    lastResult,
    defaultValue: {
      firstName: doctor.firstName ?? "",
      lastName: doctor.lastName ?? "",
      email: doctor.email,
      phone: doctor.phone ?? "",
      specialty: doctor.specialty,
    },
    onValidate: validation.onValidate,
    shouldValidate: "onBlur",
  });
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      onFocusCapture={validation.onFocusCapture}
      className="card border border-base-300"
      aria-labelledby="edit-doctor-title"
    >
      <div className="card-body gap-4 p-5">
        <h2 id="edit-doctor-title" className="card-title">
          {t("admin.doctors.editTitle")}
        </h2>
        {lastResult?.status === "error" ? (
          <FormAlert title={t("admin.doctors.saveFailed")} message={t("admin.accounts.checkForm")} />
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField meta={fields.firstName} label={t("forms.fields.firstName")} autoComplete="off" />
          <TextField meta={fields.lastName} label={t("forms.fields.lastName")} autoComplete="off" />
        </div>
        <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="off" />
        <TextField meta={fields.phone} label={t("forms.fields.phone")} type="tel" autoComplete="off" hint={t("forms.hints.phone")} />
        <TextField meta={fields.specialty} label={t("admin.doctors.fields.specialty")} autoComplete="off" />
        <FileField
          meta={fields.picture}
          label={t("admin.doctors.fields.picture")}
          hint={t("admin.doctors.hints.picture")}
          accept={PHOTO_CONTENT_TYPES.join(",")}
        />
        <SubmitButton
          name="intent"
          value={UPDATE_DOCTOR_INTENT}
          className="btn btn-primary self-start"
          busyLabel={t("admin.doctors.saving")}
        >
          {t("admin.doctors.save")}
        </SubmitButton>
      </div>
    </Form>
  );
}
