import { useTranslation } from "react-i18next";

/** The patient's doctor once the consultation is under way: name, specialty, and whether they are connected now. */
export function DoctorCard({ firstName, online }: { firstName: string; online: boolean | null }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t("doctorCard.yourDoctor")} className="card border border-base-300" data-testid="doctor-card">
      <div className="card-body flex-row items-center gap-3 p-4">
        <div className="avatar avatar-placeholder" aria-hidden="true">
          <div className="w-12 rounded-full bg-primary text-primary-content">
            <span className="text-lg">{firstName.slice(0, 1)}</span>
          </div>
        </div>
        <div className="flex flex-col">
          <p className="font-bold">{t("doctorCard.name", { name: firstName })}</p>
          <p className="text-sm text-base-content/80">{t("doctorCard.specialty")}</p>
        </div>
        {online === null ? null : (
          <span className={`badge ms-auto ${online ? "badge-success" : "badge-ghost"}`} data-testid="doctor-presence">
            {online ? t("doctorCard.online") : t("doctorCard.offline")}
          </span>
        )}
      </div>
    </section>
  );
}
