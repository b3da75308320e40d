import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Previous and next links for a server-paged list; they keep the list's search and filters. */
export function Pager({ page, hasPrevious, hasNext }: { page: number; hasPrevious: boolean; hasNext: boolean }) {
  const { t } = useTranslation();
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
    <nav aria-label={t("paging.label")} className="flex flex-wrap items-center justify-between gap-2">
      {hasPrevious ? (
        <Link to={hrefFor(page - 1)} className="btn btn-sm btn-outline" rel="prev">
          {t("paging.previous")}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-base-content/70" aria-current="page">
        {t("paging.page", { page })}
      </span>
      {hasNext ? (
        <Link to={hrefFor(page + 1)} className="btn btn-sm btn-outline" rel="next">
          {t("paging.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
