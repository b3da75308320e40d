import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

import { birrText } from "~/domain/money";
import type { DifferenceDetail } from "~/domain/reconciliation-details";

/** A detail as the page gets it: worded here; a row from before details were kept has an English line. */
type ShownDifferenceDetail = DifferenceDetail | { says: "english"; line: string };

/** What one side of a difference says, in the reader's language; `amount` is that side's own, in birr. */
function detailText(t: TFunction, detail: DifferenceDetail, amount: string): string {
  switch (detail.says) {
    case "payment_status":
    case "no_escrow":
      return t(`admin.reconciliation.details.${detail.says}`, { status: t(`admin.payments.statuses.${detail.status}`) });
    case "payout_status":
      return t(detail.taken ? "admin.reconciliation.details.payout_taken" : "admin.reconciliation.details.payout_status", {
        status: t(`admin.finance.payoutStatus.${detail.status}`),
      });
    case "escrow_status":
      return t("admin.reconciliation.details.escrow_status", { status: t(`admin.reconciliation.details.escrow.${detail.status}`) });
    case "provider_status":
      return t("admin.reconciliation.details.provider_status", { status: detail.status });
    case "books_balance":
      return t("admin.reconciliation.details.books_balance", { amount, inTransit: birrText(detail.inTransitSantim) });
    case "provider_balance":
      return t("admin.reconciliation.details.provider_balance", { amount, available: birrText(detail.availableSantim) });
    default:
      return t(`admin.reconciliation.details.${detail.says}`, { amount });
  }
}

/** One side's detail line under its amount on the reconciliation page. */
export function DifferenceDetailLine({ detail, amount }: { detail: ShownDifferenceDetail; amount: string | null }) {
  const { t } = useTranslation();
  if (detail.says === "english")
    return (
      <dd className="text-xs text-base-content/70" lang="en">
        {detail.line}
      </dd>
    );
  return <dd className="text-xs text-base-content/70">{detailText(t, detail, amount ?? "")}</dd>;
}
