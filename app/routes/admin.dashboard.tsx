import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AddAdminForm, AddDoctorForm } from "~/components/admin/staff-account-forms";
import { CardList, DoctorStatusBadge, PersonName, useAdminDate } from "~/components/admin/user-list";
import { DashboardWelcome } from "~/components/dashboard-welcome";
import { Pager } from "~/components/pager";
import { StatCard } from "~/components/stat-card";
import { pageRequest } from "~/domain/paging";
import { ADD_ADMIN_INTENT, ADD_DOCTOR_INTENT, USER_TABS, userTabOf } from "~/domain/staff-intents";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireAdmin } from "~/server/auth/guards.server";

import { handleStaffAccountAction, platformCounts, registeredUsers } from "./admin.dashboard.server";

// The admin's home: the platform's figures, the forms that add doctors and admins, and every
// registered user by role, a page at a time.
export async function loader(args: LoaderFunctionArgs) {
  const admin = await requireAdmin(args);
  const { context, request } = args;
  const params = new URL(request.url).searchParams;
  const tab = userTabOf(params.get("tab"));
  const [counts, users] = await Promise.all([platformCounts(context.db), registeredUsers(context.db, tab, pageRequest(params))]);
  const t = await getTranslator(request);
  // A closed account is named so, without its placeholder address (its name and phone were erased).
  const rows = users.rows.map(({ closedAt, ...user }) =>
    closedAt ? { ...user, firstName: t("privacyRights.closedAccount"), lastName: null, email: "" } : user,
  );
  return { title: pageTitle(t("admin.dashboard.title")), firstName: admin.firstName ?? "", counts, tab, users: { ...users, rows } };
}

export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  return handleStaffAccountAction(args.context, args.request, admin);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function AdminDashboard() {
  const { t } = useTranslation();
  const { firstName, counts, tab, users } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <DashboardWelcome firstName={firstName} profilePath="/admin/profile">
      <p className="text-base-content/80">{t("dashboard.adminIntro")}</p>
      <section aria-label={t("admin.dashboard.countsLabel")} className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <StatCard label={t("admin.dashboard.counts.doctors")} value={counts.doctors} testId="count-doctors" />
        <StatCard label={t("admin.dashboard.counts.admins")} value={counts.admins} testId="count-admins" />
        <StatCard label={t("admin.dashboard.counts.consultations")} value={counts.consultations} testId="count-consultations" />
        <StatCard label={t("admin.dashboard.counts.patients")} value={counts.patients} testId="count-patients" />
      </section>
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <AddDoctorForm answer={answer?.intent === ADD_DOCTOR_INTENT ? answer : undefined} />
        <AddAdminForm answer={answer?.intent === ADD_ADMIN_INTENT ? answer : undefined} />
      </div>
      <RegisteredUsers tab={tab} users={users} />
    </DashboardWelcome>
  );
}

function RegisteredUsers({ tab, users }: Pick<ReturnType<typeof useLoaderData<typeof loader>>, "tab" | "users">) {
  const { t } = useTranslation();
  const date = useAdminDate();
  return (
    <section aria-labelledby="registered-users" className="flex flex-col gap-3">
      <h2 id="registered-users" className="text-xl font-bold">
        {t("admin.users.title")}
      </h2>
      <nav aria-label={t("admin.users.tabsLabel")}>
        <ul className="flex flex-wrap gap-2">
          {USER_TABS.map((item) => (
            <li key={item}>
              <Link
                to={`?tab=${item}`}
                preventScrollReset
                aria-current={item === tab ? "page" : undefined}
                className={`btn btn-sm ${item === tab ? "btn-primary" : "btn-outline"}`}
              >
                {t(`admin.users.tabs.${item}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <CardList testId="registered-users" empty={t("admin.users.empty")}>
        {users.rows.map((user) => (
          <li key={user.id} className="card border border-base-300" data-testid="registered-user">
            <div className="card-body gap-1 p-4 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-bold">
                  <PersonName firstName={user.firstName} lastName={user.lastName} />
                </h3>
                {user.doctorStatus ? <DoctorStatusBadge status={user.doctorStatus} /> : null}
              </div>
              {user.email ? <p className="break-all">{user.email}</p> : null}
              <p>{user.phone ?? t("admin.users.noPhone")}</p>
              <p className="text-base-content/80">{t("admin.users.joined", { date: date(user.joinedAt) })}</p>
            </div>
          </li>
        ))}
      </CardList>
      <Pager page={users.page} hasPrevious={users.hasPrevious} hasNext={users.hasNext} />
    </section>
  );
}
