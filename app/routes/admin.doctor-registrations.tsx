import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AdminListPage, SearchField, SearchForm } from "~/components/admin/list-page";
import { RegistrationCard } from "~/components/admin/registration-card";
import { formatDay } from "~/domain/dates";
import { RejectionSchema } from "~/domain/doctor-application";
import { isUuid } from "~/domain/ids";
import { pageRequest, searchText, toPage } from "~/domain/paging";
import { parseForm } from "~/forms";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { listRegistrations, registrationFilter } from "~/server/db/registrations.server";
import { readFormData } from "~/server/form-body.server";
import { approveRegistration, type DecisionRefusal, rejectRegistration } from "~/server/registrations/review.server";
import { redirectWithToast } from "~/server/toast.server";

const FILTERS = ["all", "pending", "approved", "rejected"] as const;

// Admins: doctors' applications, pending first, a page at a time; approve or reject the pending ones.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { request, context } = args;
  const params = new URL(request.url).searchParams;
  const search = searchText(params);
  const filter = registrationFilter(params.get("status"));
  const page = pageRequest(params);
  const [t, language, rows] = await Promise.all([
    getTranslator(request),
    detectLanguage(request),
    listRegistrations(context.db, { search, filter, page }),
  ]);
  const shown = toPage(rows, page);
  const rejecting = params.get("reject");
  return {
    title: pageTitle(t("admin.registrations.title")),
    search,
    filter,
    rejecting: isUuid(rejecting) ? rejecting : null,
    ...shown,
    rows: shown.rows.map(({ createdAt, reviewedAt: _reviewedAt, ...row }) => ({ ...row, submittedOn: formatDay(createdAt, language) })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

const REFUSAL_TEXT: Record<
  DecisionRefusal,
  "admin.registrations.notFound" | "admin.registrations.alreadyDecided" | "admin.registrations.emailTaken"
> = {
  notFound: "admin.registrations.notFound",
  alreadyDecided: "admin.registrations.alreadyDecided",
  emailTaken: "admin.registrations.emailTaken",
};

export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  const { request, context } = args;
  const form = await readFormData(request);
  const id = form.get("id");
  const intent = form.get("intent");
  if (!isUuid(id) || (intent !== "approve" && intent !== "reject")) throw new Response("Bad Request", { status: 400 });
  // Back to the list as it was (search, filter, page), without an open reject form.
  const url = new URL(request.url);
  url.searchParams.delete("reject");
  url.searchParams.delete("index");
  const back = `${url.pathname}${url.search}`;
  const now = new Date();

  if (intent === "approve") {
    const outcome = await approveRegistration(context, request, id, admin.userId, now);
    if (!outcome.ok)
      return redirectWithToast(
        back,
        { kind: "error", title: "admin.registrations.approveFailed", description: REFUSAL_TEXT[outcome.reason] },
        context.config,
      );
    return redirectWithToast(
      back,
      {
        kind: "success",
        title: "admin.registrations.approvedTitle",
        description: "admin.registrations.approvedBody",
        values: { name: outcome.registration.fullName, email: outcome.registration.email },
      },
      context.config,
    );
  }
  const submission = parseForm(form, RejectionSchema);
  if (submission.status !== "success")
    return redirectWithToast(
      back,
      { kind: "error", title: "admin.registrations.rejectFailed", description: "admin.registrations.reasonTooLong" },
      context.config,
    );
  const outcome = await rejectRegistration(context, request, id, submission.value.reason, admin.userId, now);
  if (!outcome.ok)
    return redirectWithToast(
      back,
      { kind: "error", title: "admin.registrations.rejectFailed", description: REFUSAL_TEXT[outcome.reason] },
      context.config,
    );
  return redirectWithToast(
    back,
    {
      kind: "success",
      title: "admin.registrations.rejectedTitle",
      description: "admin.registrations.rejectedBody",
      values: { name: outcome.registration.fullName, email: outcome.registration.email },
    },
    context.config,
  );
}

export default function DoctorRegistrations() {
  const { t } = useTranslation();
  const { rows, search, filter, rejecting, page, hasPrevious, hasNext } = useLoaderData<typeof loader>();
  const loading = useNavigation().state === "loading";
  return (
    <AdminListPage
      title={t("admin.registrations.title")}
      intro={t("admin.registrations.subtitle")}
      search={
        <SearchForm columns="sm:grid-cols-[1fr_auto_auto]" submitLabel={t("admin.search.submit")}>
          <SearchField label={t("admin.search.label")} name="q" defaultValue={search} />
          <div className="flex flex-col gap-1">
            <label htmlFor="registrations-status" className="text-sm font-medium">
              {t("admin.registrations.statusFilter")}
            </label>
            <select id="registrations-status" name="status" defaultValue={filter} className="select select-sm">
              {FILTERS.map((item) => (
                <option key={item} value={item}>
                  {t(item === "all" ? "admin.registrations.allStatuses" : `admin.registrations.status.${item}`)}
                </option>
              ))}
            </select>
          </div>
        </SearchForm>
      }
      notice={
        loading ? (
          <p role="status" className="text-sm text-base-content/70">
            {t("admin.registrations.loading")}
          </p>
        ) : null
      }
      empty={rows.length > 0 ? null : t("admin.registrations.empty")}
      emptyTestId="registrations-empty"
      paging={{ page, hasPrevious, hasNext }}
    >
      <div className="flex flex-col gap-3">
        {rows.map((registration) => (
          <RegistrationCard key={registration.id} registration={registration} rejectingInPlace={rejecting === registration.id} />
        ))}
      </div>
    </AdminListPage>
  );
}

export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  // A forged form (no such intent, an id that is no id) is the sender's mistake; anything else is ours.
  const forged = isRouteErrorResponse(error) && error.status === 400;
  if (!forged && !isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-3 px-4 py-6">
      <h1 className="text-2xl font-bold">{t("admin.registrations.title")}</h1>
      <p role="alert" className="alert alert-error">
        {t(forged ? "admin.registrations.invalidRequest" : "admin.registrations.loadFailed")}
      </p>
    </div>
  );
}
