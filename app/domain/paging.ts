// Server-side paging for long lists: no list loads more than a page, whatever the table holds.
import { cleanLine } from "~/domain/text-hygiene";

/** The most rows any admin list loads at once. */
const PAGE_SIZE = 50;

/** The longest search text a list accepts; longer input is cut, never an error. */
export const MAX_SEARCH_CHARS = 100;

export interface PageRequest {
  /** 1-based page number, as shown to the reader. */
  page: number;
  offset: number;
  /** One more than a page: the extra row tells whether there is a next page without counting. */
  limit: number;
}

/** Reads `?page=` leniently: anything but a whole number from 1 up is page 1. */
export function pageRequest(params: URLSearchParams, pageSize = PAGE_SIZE): PageRequest {
  const raw = params.get("page") ?? "";
  const parsed = /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  const page = Math.max(1, parsed);
  return { page, offset: (page - 1) * pageSize, limit: pageSize + 1 };
}

export interface Page<Row> {
  rows: Row[];
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** The page to show from rows fetched with `pageRequest`'s limit (one more than a page). */
export function toPage<Row>(fetched: Row[], request: PageRequest, pageSize = PAGE_SIZE): Page<Row> {
  return { rows: fetched.slice(0, pageSize), page: request.page, hasPrevious: request.page > 1, hasNext: fetched.length > pageSize };
}

/** The search text of `?q=` (or another parameter), trimmed and cut to `MAX_SEARCH_CHARS`. */
export function searchText(params: URLSearchParams, name = "q"): string {
  return cleanLine(params.get(name) ?? "")
    .trim()
    .slice(0, MAX_SEARCH_CHARS);
}
