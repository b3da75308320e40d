/** A figure with its label. Labels wrap (daisyUI keeps them on one line, which Amharic outgrows at 360 px). */
export function StatCard({ label, value, testId }: { label: string; value: number; testId?: string }) {
  return (
    <div className="stat min-w-0 rounded-box border border-base-300 p-4">
      <div className="stat-title text-sm break-words whitespace-normal text-base-content/80">{label}</div>
      <div className="stat-value text-3xl" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}
