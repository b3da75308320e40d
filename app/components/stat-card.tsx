export function StatCard({ label, value, testId }: { label: string; value: number; testId?: string }) {
  return (
    <div className="stat rounded-box border border-base-300 p-4">
      <div className="stat-title text-sm">{label}</div>
      <div className="stat-value text-3xl" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}
