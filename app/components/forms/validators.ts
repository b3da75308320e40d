// Each form's validator for the browser, loaded on demand (use-lazy-validation): the schemas are the
// very ones the actions check with on the server.
import { ChangePasswordSchema, ConsentSchema, EmailOnlySchema, ProfileSchema, SetPasswordSchema } from "~/domain/auth-schemas";
import { RequestDetailsSchema } from "~/domain/consultation-request";
import { FeedbackSchema } from "~/domain/feedback";
import { parseForm } from "~/forms";

import type { FormValidator } from "./use-lazy-validation";

const validatorFor =
  (schema: Parameters<typeof parseForm>[1]): FormValidator =>
  (formData) =>
    parseForm(formData, schema);

export const validateConsent = validatorFor(ConsentSchema);
export const validateEmailOnly = validatorFor(EmailOnlySchema);
export const validateSetPassword = validatorFor(SetPasswordSchema);
export const validateChangePassword = validatorFor(ChangePasswordSchema);
export const validateProfile = validatorFor(ProfileSchema);
export const validateRequestDetails = validatorFor(RequestDetailsSchema);
export const validateFeedback = validatorFor(FeedbackSchema);
