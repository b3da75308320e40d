// The admin forms' validators for the browser, loaded on demand (use-lazy-validation): the very
// schemas the actions check with on the server.
import type { FormValidator } from "~/components/forms/use-lazy-validation";
import { AddAdminSchema, AddDoctorSchema, EditDoctorSchema } from "~/domain/staff-forms";
import { parseForm } from "~/forms";

export const validateAddDoctor: FormValidator = (formData) => parseForm(formData, AddDoctorSchema);
export const validateAddAdmin: FormValidator = (formData) => parseForm(formData, AddAdminSchema);
export const validateEditDoctor: FormValidator = (formData) => parseForm(formData, EditDoctorSchema);
