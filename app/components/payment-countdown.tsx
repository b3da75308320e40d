import { useNow } from "./use-now";

/** Minutes and seconds left until `deadline`, ticking every second (the server enforces the deadline). */
export function PaymentCountdown({ deadline, className = "font-mono text-3xl font-bold" }: { deadline: string; className?: string }) {
  const end = new Date(deadline).getTime();
  const now = useNow(1_000);
  const secondsLeft = Math.max(0, Math.round((end - now) / 1_000));
  const text = `${Math.floor(secondsLeft / 60)}:${String(secondsLeft % 60).padStart(2, "0")}`;
  return (
    <span className={className} role="timer" data-testid="payment-countdown" suppressHydrationWarning>
      {text}
    </span>
  );
}
