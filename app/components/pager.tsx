import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** The pager's words, for a page that ships none of its texts (the admin lists read them from admin.json). */
export interface PagerWords {
  label: string;
  previous: string;
  next: string;
  page: string;
}

/** Previous and next links for a server-paged list; they keep the list's search and filters. */
export function Pager({ page, hasPrevious, hasNext, words }: { page: number; hasPrevious: boolean; hasNext: boolean; words?: PagerWords }) {
  const { t } = useTranslation();
  const say = words ?? {
    label: t("paging.label"),
    previous: t("paging.previous"),
    next: t("paging.next"),
    page: t("paging.page", { page }),
  };
  const { search } = useLocation();
  if (!hasPrevious && !hasNext) return null;
  const hrefFor = (target: number) => {
    const params = new URLSearchParams(search);
    if (target > 1) params.set("page", String(target));
    else params.delete("page");
    const query = params.toString();
    return query ? `?${query}` : ".";
  };
  return (
    <nav aria-label={say.label} className="flex flex-wrap items-center justify-between gap-2">
      {hasPrevious ? (
        <Link to={hrefFor(page - 1)} className="btn btn-sm btn-outline" rel="prev">
          {say.previous}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-base-content/70" aria-current="page">
        {say.page}
      </span>
      {hasNext ? (
        <Link to={hrefFor(page + 1)} className="btn btn-sm btn-outline" rel="next">
          {say.next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
