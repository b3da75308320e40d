import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AdminListPage, SearchField, SearchForm } from "~/components/admin/list-page";
import { When } from "~/components/admin/when";
import { RATING_MAX, RATING_MIN } from "~/domain/constants";
import { labelled } from "~/domain/label-colon";
import { pageRequest, searchText, toPage } from "~/domain/paging";
import { getTranslator, pageTitle } from "~/i18n.server";
import { feedbackForAdmins } from "~/server/admin/feedback-list.server";
import { requireAdmin } from "~/server/auth/guards.server";

const RATINGS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, index) => RATING_MIN + index);

/** `?rating=` when it is a rating (1 to 5); anything else means every rating. */
function ratingOf(raw: string | null) {
  if (!raw || !/^\d$/.test(raw)) return null;
  const rating = Number(raw);
  return rating >= RATING_MIN && rating <= RATING_MAX ? rating : null;
}

// Admins: every patient's feedback, searched and paged on the server, newest first.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request } = args;
  const params = new URL(request.url).searchParams;
  const filter = { search: searchText(params), rating: ratingOf(params.get("rating")) };
  const paging = pageRequest(params);
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("admin.feedbacks.title")),
    query: { q: filter.search, rating: filter.rating === null ? "" : String(filter.rating) },
    feedback: toPage(await feedbackForAdmins(context.db, t, filter, paging), paging),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

type Person = { name: string; email: string; phone: string };

function PersonLines({ role, person }: { role: string; person: Person | null }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="text-xs text-base-content/80">{role}</dt>
      <dd className="font-medium break-words">{person?.name || t("admin.records.unknownPerson")}</dd>
      {person?.email ? <dd className="text-sm break-all">{person.email}</dd> : null}
      {person?.phone ? <dd className="text-sm">{person.phone}</dd> : null}
    </div>
  );
}

export default function AdminFeedbacks() {
  const { t } = useTranslation();
  const { query, feedback } = useLoaderData<typeof loader>();
  return (
    <AdminListPage
      title={t("admin.feedbacks.title")}
      search={
        <SearchForm columns="sm:grid-cols-[1fr_auto_auto]" submitLabel={t("admin.search.submit")}>
          <SearchField label={t("admin.feedbacks.searchLabel")} name="q" defaultValue={query.q} />
          <label className="flex flex-col gap-1">
            <span className="text-sm">{t("admin.feedbacks.rating")}</span>
            <select name="rating" defaultValue={query.rating} className="select select-sm w-full">
              <option value="">{t("admin.feedbacks.anyRating")}</option>
              {RATINGS.map((rating) => (
                <option key={rating} value={rating}>
                  {t("admin.feedbacks.ratingValue", { rating, max: RATING_MAX })}
                </option>
              ))}
            </select>
          </label>
        </SearchForm>
      }
      empty={feedback.rows.length > 0 ? null : query.q || query.rating ? t("admin.search.noResults") : t("admin.feedbacks.none")}
      paging={feedback}
    >
      <ul className="flex flex-col gap-3" data-testid="feedback-list">
        {feedback.rows.map((row) => (
          <li key={row.id} className="flex flex-col gap-3 rounded-box border border-base-300 p-4" data-testid="feedback-row">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-bold" data-testid="feedback-rating">
                {t("admin.feedbacks.ratingValue", { rating: row.rating, max: RATING_MAX })}
              </p>
              <span className="text-sm text-base-content/80">
                <When iso={row.createdAt} />
              </span>
            </div>
            <p className="break-words whitespace-pre-wrap" data-testid="feedback-message">
              {row.message || t("admin.feedbacks.noMessage")}
            </p>
            <dl className="grid gap-3 sm:grid-cols-3">
              <PersonLines role={t("admin.records.patient")} person={row.patient} />
              <PersonLines role={t("admin.records.doctor")} person={row.doctor} />
              <div className="flex min-w-0 flex-col">
                <dt className="text-xs text-base-content/80">{t("admin.feedbacks.contact")}</dt>
                <dd className="text-sm break-all">
                  {row.contact
                    ? labelled(t(`admin.feedbacks.methods.${row.contact.method}`), row.contact.value)
                    : t("admin.feedbacks.noContact")}
                </dd>
              </div>
            </dl>
            <Link to={`/admin/consultations/${row.consultationId}`} className="link self-start text-sm">
              {t("admin.records.openConsultation")}
            </Link>
          </li>
        ))}
      </ul>
    </AdminListPage>
  );
}
