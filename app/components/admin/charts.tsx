// Two small charts for the admins' overview, drawn as inline SVG (no chart library). Each carries its
// figures as text too: the bar list's labels and numbers are text beside the bars, and the column
// chart has an accessible name and a table of its values under a disclosure.
import { useId } from "react";

import { barLengths } from "~/domain/admin-figures";

const BAR_WIDTH = 100;

/** Horizontal bars, one row each: label, bar, number. Wraps at any width; the bars only draw what the text says. */
export function BarList({ title, items }: { title: string; items: Array<{ key: string; label: string; value: number }> }) {
  const headingId = useId();
  const lengths = barLengths(
    items.map((item) => item.value),
    BAR_WIDTH,
  );
  return (
    <figure className="flex min-w-0 flex-col gap-2 rounded-box border border-base-300 p-4" aria-labelledby={headingId}>
      <figcaption id={headingId} className="font-bold">
        {title}
      </figcaption>
      <ul className="flex flex-col gap-2" data-testid="bar-list">
        {items.map((item, index) => (
          <li key={item.key} className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 text-sm" data-key={item.key}>
            <span className="break-words">{item.label}</span>
            <span className="font-mono font-bold" data-testid="bar-value">
              {item.value}
            </span>
            <svg
              viewBox={`0 0 ${BAR_WIDTH} 6`}
              preserveAspectRatio="none"
              className="col-span-2 h-2 w-full"
              aria-hidden="true"
              focusable="false"
            >
              <rect x="0" y="0" width={BAR_WIDTH} height="6" rx="3" className="fill-base-200" />
              <rect x="0" y="0" width={lengths[index]} height="6" rx="3" className="fill-primary" />
            </svg>
          </li>
        ))}
      </ul>
    </figure>
  );
}

const COLUMN_CHART_HEIGHT = 60;

/**
 * Columns over time (e.g. one a day), oldest on the left. The SVG has an accessible name with the
 * summary; the exact values are in a table under "show as a table".
 */
export function ColumnChart({
  title,
  summary,
  tableLabel,
  columns,
  headers,
}: {
  title: string;
  /** What the chart shows, in a sentence (its accessible name). */
  summary: string;
  tableLabel: string;
  columns: Array<{ key: string; label: string; value: number }>;
  headers: { label: string; value: string };
}) {
  const headingId = useId();
  const width = Math.max(1, columns.length) * 10;
  const heights = barLengths(
    columns.map((column) => column.value),
    COLUMN_CHART_HEIGHT - 2,
  );
  return (
    <figure className="flex min-w-0 flex-col gap-2 rounded-box border border-base-300 p-4" aria-labelledby={headingId}>
      <figcaption id={headingId} className="font-bold">
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${COLUMN_CHART_HEIGHT}`}
        preserveAspectRatio="none"
        className="h-32 w-full"
        role="img"
        aria-label={summary}
        data-testid="column-chart"
      >
        <line x1="0" y1={COLUMN_CHART_HEIGHT - 0.5} x2={width} y2={COLUMN_CHART_HEIGHT - 0.5} className="stroke-base-300" strokeWidth="1" />
        {columns.map((column, index) => (
          <rect
            key={column.key}
            x={index * 10 + 1.5}
            y={COLUMN_CHART_HEIGHT - 1 - heights[index]!}
            width="7"
            height={heights[index]}
            className="fill-primary"
          />
        ))}
      </svg>
      <p className="text-sm text-base-content/80">{summary}</p>
      <details className="text-sm">
        <summary className="cursor-pointer">{tableLabel}</summary>
        <div className="mt-2 max-h-64 overflow-y-auto" tabIndex={0} role="region" aria-label={tableLabel}>
          <table className="table table-xs">
            <thead>
              <tr>
                <th scope="col">{headers.label}</th>
                <th scope="col">{headers.value}</th>
              </tr>
            </thead>
            <tbody>
              {columns.map((column) => (
                <tr key={column.key}>
                  <td>{column.label}</td>
                  <td>{column.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
