/** The brand at the head of a printed document (a receipt, a summary): the name in both scripts. */
export function DocumentBrand({ className = "font-bold text-primary" }: { className?: string }) {
  return (
    <p className={className}>
      Qoda{" "}
      <span lang="am" className="font-wordmark">
        ቆዳ
      </span>
    </p>
  );
}
