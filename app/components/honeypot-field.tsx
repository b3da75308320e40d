import { useTranslation } from "react-i18next";

import { HONEYPOT_FIELD } from "~/domain/doctor-application";

/**
 * A field people never see and never fill (it is off screen, out of the tab order and hidden from
 * screen readers); scripts that fill every field give themselves away. Public forms only.
 */
export function HoneypotField() {
  const { t } = useTranslation();
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={HONEYPOT_FIELD}>{t("contact.honeypot")}</label>
      <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
