import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { SubmitButton } from "~/components/form-basics";
import { useHydrated } from "~/components/use-hydrated";
import { MAX_REJECTION_REASON_CHARS } from "~/domain/doctor-application";

interface Rejectable {
  id: string;
  fullName: string;
}

/** The list's address with `id`'s reject form shown in place: how Reject works without script. */
function rejectHref(search: string, id: string) {
  const params = new URLSearchParams(search);
  params.set("reject", id);
  return `?${params.toString()}`;
}

/** The reason field and the confirm button; posts to the list, which reloads with the outcome. */
export function RejectForm({ registration, onCancel }: { registration: Rejectable; onCancel?: () => void }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const fieldId = `reject-reason-${registration.id}`;
  const withoutReject = new URLSearchParams(search);
  withoutReject.delete("reject");
  const cancelHref = withoutReject.size ? `?${withoutReject.toString()}` : ".";
  return (
    <Form method="post" preventScrollReset className="flex flex-col gap-3" data-testid="reject-form">
      <input type="hidden" name="id" value={registration.id} />
      <p className="font-medium">{t("admin.registrations.rejectTitle", { name: registration.fullName })}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor={fieldId}>{t("admin.registrations.reasonLabel")}</label>
        <textarea id={fieldId} name="reason" rows={3} maxLength={MAX_REJECTION_REASON_CHARS} className="textarea w-full" autoFocus />
      </div>
      <div className="flex flex-wrap gap-2">
        <SubmitButton name="intent" value="reject" className="btn btn-error btn-sm" busyLabel={t("forms.busy")}>
          {t("admin.registrations.confirmReject")}
        </SubmitButton>
        {onCancel ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
            {t("admin.registrations.cancel")}
          </button>
        ) : (
          <Link to={cancelHref} preventScrollReset className="btn btn-ghost btn-sm">
            {t("admin.registrations.cancel")}
          </Link>
        )}
      </div>
    </Form>
  );
}

/**
 * Reject: a link to the same list with the form in place, which works without script; with script it
 * opens a modal dialog instead (focus moves into it, Escape closes it, focus returns to the button).
 */
export function RejectDialog({ registration }: { registration: Rejectable }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);
  const close = () => dialog.current?.close();
  return (
    <>
      <Link
        to={rejectHref(search, registration.id)}
        preventScrollReset
        className="btn btn-outline btn-error btn-sm"
        onClick={(event) => {
          if (!hydrated) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {t("admin.registrations.reject")}
      </Link>
      {open ? (
        <dialog
          ref={dialog}
          className="modal"
          aria-labelledby={`reject-title-${registration.id}`}
          onClose={() => setOpen(false)}
          data-testid="reject-dialog"
        >
          <div className="modal-box">
            <h2 id={`reject-title-${registration.id}`} className="mb-3 text-lg font-bold">
              {t("admin.registrations.reject")}
            </h2>
            <RejectForm registration={registration} onCancel={close} />
          </div>
        </dialog>
      ) : null}
    </>
  );
}
