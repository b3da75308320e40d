import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { RejectDialog, RejectForm } from "~/components/admin/reject-dialog";
import { SubmitButton } from "~/components/form-basics";

export interface RegistrationCardData {
  id: string;
  fullName: string;
  email: string;
  phone: string;
  cityCountry: string;
  experienceYears: number;
  licenceFileName: string;
  status: string;
  /** Formatted by the server, in the reader's language and Addis Ababa time. */
  submittedOn: string;
  rejectionReason: string | null;
}

const BADGE: Record<string, string> = { pending: "badge-warning", approved: "badge-success", rejected: "badge-error" };
const KNOWN_STATUSES = ["pending", "approved", "rejected"] as const;

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = KNOWN_STATUSES.find((item) => item === status);
  // Any other status is shown as it is, as plain text.
  if (!known) return <span data-status={status}>{status}</span>;
  return (
    <span className={`badge ${BADGE[known]}`} data-status={known}>
      {t(`admin.registrations.status.${known}`)}
    </span>
  );
}

/** One application: who, how to reach them, their licence, and (while pending) the admin's two choices. */
export function RegistrationCard({ registration, rejectingInPlace }: { registration: RegistrationCardData; rejectingInPlace: boolean }) {
  const { t } = useTranslation();
  const headingId = `registration-${registration.id}`;
  const pending = registration.status === "pending";
  return (
    <article aria-labelledby={headingId} className="card border border-base-300 bg-base-100" data-testid="registration-card">
      <div className="card-body gap-3 p-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h2 id={headingId} className="text-lg font-bold">
              {registration.fullName}
            </h2>
            <p className="text-sm text-base-content/70">{t("admin.registrations.submitted", { date: registration.submittedOn })}</p>
          </div>
          <StatusBadge status={registration.status} />
        </div>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">{t("admin.registrations.email")}</dt>
          <dd className="break-all">{registration.email}</dd>
          <dt className="font-medium">{t("admin.registrations.phone")}</dt>
          <dd>{registration.phone}</dd>
          <dt className="font-medium">{t("admin.registrations.cityCountry")}</dt>
          <dd>{registration.cityCountry}</dd>
          <dt className="font-medium">{t("admin.registrations.experience")}</dt>
          <dd>{t("admin.registrations.years", { count: registration.experienceYears })}</dd>
          <dt className="font-medium">{t("admin.registrations.licence")}</dt>
          <dd className="break-all">
            {/* A document, not a page of the app: opened as a file, in a new tab. */}
            <a
              href={`/admin/doctor-registrations/${registration.id}/licence`}
              target="_blank"
              rel="noopener"
              className="link link-primary"
              data-testid="licence-link"
            >
              {registration.licenceFileName}
            </a>
          </dd>
          {registration.rejectionReason ? (
            <>
              <dt className="font-medium">{t("admin.registrations.rejectionReason")}</dt>
              <dd className="whitespace-pre-line">{registration.rejectionReason}</dd>
            </>
          ) : null}
        </dl>
        {pending ? (
          rejectingInPlace ? (
            <RejectForm registration={registration} />
          ) : (
            <div className="flex flex-wrap gap-2">
              <Form method="post" preventScrollReset>
                <input type="hidden" name="id" value={registration.id} />
                <SubmitButton name="intent" value="approve" className="btn btn-success btn-sm" busyLabel={t("forms.busy")}>
                  {t("admin.registrations.approve")}
                </SubmitButton>
              </Form>
              <RejectDialog registration={registration} />
            </div>
          )
        ) : null}
      </div>
    </article>
  );
}
