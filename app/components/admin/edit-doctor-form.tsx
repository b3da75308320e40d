// The admin's form for a doctor's details and profile picture; it works without JavaScript.
import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FileField, PersonFields, StaffAccountCard } from "~/components/admin/staff-account-forms";
import { FormAlert } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
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
    <StaffAccountCard
      formProps={getFormProps(form)}
      onFocusCapture={validation.onFocusCapture}
      multipart
      title={t("admin.doctors.editTitle")}
      alert={
        lastResult?.status === "error" ? <FormAlert title={t("admin.doctors.saveFailed")} message={t("admin.accounts.checkForm")} /> : null
      }
      intent={UPDATE_DOCTOR_INTENT}
      submitLabel={t("admin.doctors.save")}
      busyLabel={t("admin.doctors.saving")}
    >
      <PersonFields fields={fields} />
      <TextField meta={fields.specialty} label={t("admin.doctors.fields.specialty")} autoComplete="off" />
      <FileField
        meta={fields.picture}
        label={t("admin.doctors.fields.picture")}
        hint={t("admin.doctors.hints.picture")}
        accept={PHOTO_CONTENT_TYPES.join(",")}
      />
    </StaffAccountCard>
  );
}
