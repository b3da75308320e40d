import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AdminListPage, SearchField, SearchForm } from "~/components/admin/list-page";
import { When } from "~/components/admin/when";
import { formatConsultationId } from "~/domain/constants";
import { pageRequest, searchText, toPage } from "~/domain/paging";
import { getTranslator, pageTitle } from "~/i18n.server";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, auditEntries, isAuditAction } from "~/server/admin/audit-list.server";
import { requireAdmin } from "~/server/auth/guards.server";

// Admins: the audit log, filtered by actor, patient and action, paged on the server, newest first.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request } = args;
  const params = new URL(request.url).searchParams;
  const action = params.get("action");
  const filter = {
    actor: searchText(params, "actor"),
    patient: searchText(params, "patient"),
    action: isAuditAction(action) ? action : null,
  };
  const paging = pageRequest(params);
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("admin.audit.title")),
    query: { actor: filter.actor, patient: filter.patient, action: filter.action ?? "" },
    actions: AUDIT_ACTIONS.map((code) => ({ code, label: t(AUDIT_ACTION_LABELS[code]) })),
    entries: toPage(await auditEntries(context.db, filter, paging, t), paging),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

type Entry = ReturnType<typeof useLoaderData<typeof loader>>["entries"]["rows"][number];

function Target({ target }: { target: Entry["target"] }) {
  const { t, i18n } = useTranslation();
  if (!target) return <span>–</span>;
  const typeKey = `admin.audit.targets.${target.type}`;
  const type = i18n.exists(typeKey) ? t(typeKey as "admin.audit.targets.user") : target.type;
  if (target.type === "consultation" && target.id)
    return (
      <Link to={`/admin/consultations/${target.id}`} className="link">
        {type} #{formatConsultationId(target.id)}
      </Link>
    );
  return (
    <span className="break-all">
      {type} {target.id ? `#${formatConsultationId(target.id)}` : ""}
    </span>
  );
}

export default function AdminAudit() {
  const { t } = useTranslation();
  const { query, actions, entries } = useLoaderData<typeof loader>();
  const filtered = Boolean(query.actor || query.patient || query.action);
  return (
    <AdminListPage
      title={t("admin.audit.title")}
      intro={t("admin.audit.intro")}
      search={
        <SearchForm columns="sm:grid-cols-[1fr_1fr_1fr_auto]" submitLabel={t("admin.search.filter")}>
          <SearchField label={t("admin.audit.actor")} name="actor" defaultValue={query.actor} />
          <SearchField label={t("admin.audit.patient")} name="patient" defaultValue={query.patient} />
          <label className="flex flex-col gap-1">
            <span className="text-sm">{t("admin.audit.action")}</span>
            <select name="action" defaultValue={query.action} className="select select-sm w-full">
              <option value="">{t("admin.audit.anyAction")}</option>
              {actions.map((action) => (
                <option key={action.code} value={action.code}>
                  {action.label}
                </option>
              ))}
            </select>
          </label>
        </SearchForm>
      }
      empty={entries.rows.length > 0 ? null : filtered ? t("admin.search.noResults") : t("admin.audit.none")}
      paging={entries}
    >
      <ol className="flex flex-col divide-y divide-base-300 rounded-box border border-base-300" data-testid="audit-list">
        {entries.rows.map((entry) => (
          <li key={entry.id} className="flex flex-col gap-1 p-3 text-sm" data-testid="audit-row" data-action={entry.action}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-bold" data-testid="audit-action">
                {entry.label ? t(entry.label) : entry.action}
              </span>
              <span className="text-base-content/80">
                <When iso={entry.createdAt} />
              </span>
            </div>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
              <dt className="text-base-content/80">{t("admin.audit.by")}</dt>
              <dd className="min-w-0" data-testid="audit-actor">
                {entry.actor ? (
                  <>
                    <span className="block break-words">{entry.actor.name || t("admin.records.unknownPerson")}</span>
                    <span className="block break-all text-base-content/80">{entry.actor.email}</span>
                  </>
                ) : (
                  t("admin.audit.system")
                )}
              </dd>
              <dt className="text-base-content/80">{t("admin.audit.target")}</dt>
              <dd>
                <Target target={entry.target} />
              </dd>
              <dt className="text-base-content/80">{t("admin.audit.ip")}</dt>
              <dd className="break-all">{entry.ipAddress ?? "–"}</dd>
              {entry.details ? (
                <>
                  <dt className="text-base-content/80">{t("admin.audit.details")}</dt>
                  <dd className="break-words" data-testid="audit-details">
                    {entry.details}
                  </dd>
                </>
              ) : null}
            </dl>
          </li>
        ))}
      </ol>
    </AdminListPage>
  );
}
