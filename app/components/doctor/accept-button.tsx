import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";

import { DECISION_INTENTS, type DecisionAnswer } from "~/domain/consultation-decisions";
import type { RequestSummary } from "~/realtime/protocol";
import { DECISION_REFUSAL_MESSAGES } from "~/refusal-messages";

/**
 * Accepts a request from the bell or a toast (the consultation page's own action answers) and says how
 * it went; whoever shows the button decides where to go once it is accepted.
 */
export function AcceptButton({
  request,
  onAccepting,
  onAccepted,
}: {
  request: RequestSummary;
  onAccepting: (request: RequestSummary) => void;
  onAccepted: (id: string) => void;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<DecisionAnswer>();
  const answer = fetcher.data;
  const accepted = answer?.intent === DECISION_INTENTS.accept && answer.refusal === null;
  useEffect(() => {
    if (accepted) onAccepted(request.id);
  }, [accepted, onAccepted, request.id]);
  if (answer?.refusal)
    return (
      <span role="status" className="text-xs text-error">
        {t(DECISION_REFUSAL_MESSAGES[answer.refusal])}
      </span>
    );
  return (
    <fetcher.Form method="post" action={`/doctor/consultation/${request.id}`} onSubmit={() => onAccepting(request)}>
      <button
        type="submit"
        name="intent"
        value={DECISION_INTENTS.accept}
        className="btn btn-primary btn-xs"
        disabled={fetcher.state !== "idle" || accepted}
        data-testid="accept-request"
      >
        {accepted ? t("doctor.requests.accepted") : t("doctor.requests.accept")}
      </button>
    </fetcher.Form>
  );
}
