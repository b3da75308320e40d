// The one layout of an admin list page: its title (with an intro or an action), a search form that
// works without JavaScript, the rows or why there are none, and the pager.
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

import { Pager } from "~/components/pager";
import { MAX_SEARCH_CHARS } from "~/domain/paging";

export function AdminListPage({
  title,
  intro,
  action,
  search,
  notice,
  empty,
  emptyTestId,
  paging,
  children,
}: {
  title: string;
  intro?: string;
  /** A link or button beside the title. */
  action?: ReactNode;
  search?: ReactNode;
  /** A refusal or a loading line, above the rows. */
  notice?: ReactNode;
  /** Why there are no rows, shown instead of them; null when there are some. */
  empty: string | null;
  emptyTestId?: string;
  paging: { page: number; hasPrevious: boolean; hasNext: boolean };
  children: ReactNode;
}) {
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold">{title}</h1>
          {intro ? <p className="text-base-content/80">{intro}</p> : null}
        </div>
        {action}
      </header>
      {search}
      {notice}
      {empty === null ? (
        children
      ) : (
        <p className="text-base-content/80" data-testid={emptyTestId}>
          {empty}
        </p>
      )}
      <Pager page={paging.page} hasPrevious={paging.hasPrevious} hasNext={paging.hasNext} />
    </section>
  );
}

/** A list's search: GET, so the results are a link; `columns` lays its fields out on wide screens. */
export function SearchForm({ columns, submitLabel, children }: { columns: string; submitLabel: string; children: ReactNode }) {
  return (
    <Form method="get" role="search" className={`grid gap-2 rounded-box border border-base-300 p-3 sm:items-end ${columns}`}>
      {children}
      <button type="submit" className="btn btn-primary btn-sm">
        {submitLabel}
      </button>
    </Form>
  );
}

/** A labelled search box in a `SearchForm`. */
export function SearchField({ label, name, defaultValue }: { label: string; name: string; defaultValue: string }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="text-sm">{label}</span>
      <input type="search" name={name} defaultValue={defaultValue} maxLength={MAX_SEARCH_CHARS} className="input input-sm w-full" />
    </label>
  );
}
