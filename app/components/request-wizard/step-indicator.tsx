import { useTranslation } from "react-i18next";

export function StepIndicator({ step }: { step: 1 | 2 | 3 }) {
  const { t } = useTranslation();
  const names = [t("request.steps.photos"), t("request.steps.details"), t("request.steps.done")];
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-semibold text-base-content/80" data-testid="step-indicator">
        {t("request.stepOf", { step, total: 3 })}
      </p>
      <ul className="steps w-full text-xs">
        {names.map((name, index) => (
          <li key={name} className={`step ${index < step ? "step-primary" : ""}`}>
            {name}
          </li>
        ))}
      </ul>
    </div>
  );
}
