import { useTranslation } from "react-i18next";

import { DOCTOR_RESPONSE_PROMISE_MINUTES, PAYMENT_WINDOW_MINUTES } from "~/domain/constants";
import { birrText, CONSULTATION_FEE_SANTIM } from "~/domain/money";

/** What the request holds so far, and what happens next. */
export function RequestSidebar({
  photoCount,
  complaintFilled,
  historyFilled,
}: {
  photoCount: number;
  complaintFilled: boolean;
  historyFilled: boolean;
}) {
  const { t } = useTranslation();
  const mark = (done: boolean) => (done ? "✓" : "—");
  return (
    <aside className="flex flex-col gap-4" aria-label={t("request.sidebar.summary")}>
      <div className="card bg-base-200">
        <div className="card-body gap-2 p-4 text-sm">
          <h2 className="font-bold">{t("request.sidebar.summary")}</h2>
          <p data-testid="sidebar-photos">{t("request.sidebar.photos", { count: photoCount })}</p>
          <p>
            <span aria-hidden="true">{mark(complaintFilled)}</span>{" "}
            {complaintFilled ? t("request.sidebar.complaintFilled") : t("request.sidebar.complaintMissing")}
          </p>
          <p>
            <span aria-hidden="true">{mark(historyFilled)}</span>{" "}
            {historyFilled ? t("request.sidebar.historyFilled") : t("request.sidebar.historyMissing")}
          </p>
        </div>
      </div>
      <div className="card border border-base-300">
        <div className="card-body gap-2 p-4 text-sm">
          <h2 className="font-bold">{t("request.sidebar.whatToExpect")}</h2>
          <ol className="list-decimal ps-5">
            <li>{t("request.sidebar.expect1", { minutes: DOCTOR_RESPONSE_PROMISE_MINUTES })}</li>
            <li>{t("request.sidebar.expect2", { amount: birrText(CONSULTATION_FEE_SANTIM), minutes: PAYMENT_WINDOW_MINUTES })}</li>
            <li>{t("request.sidebar.expect3")}</li>
          </ol>
        </div>
      </div>
    </aside>
  );
}
