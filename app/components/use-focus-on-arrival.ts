import { useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * After an in-app navigation, focus goes to the new page's heading, as a full page load would start
 * there for a screen reader: the element marked `data-focus-on-arrival` (a wizard step's heading), else
 * the main `h1`. Within one page (same path), only a newly arrived marked heading takes focus, so a tab
 * switch or a language change leaves focus where it was; a navigation that replaces the address (a
 * draft's id added while photos upload) never moves it.
 */
export function useFocusOnArrival() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const last = useRef<{ pathname: string; arrivalId: string | null } | null>(null);
  useEffect(() => {
    const marked = document.querySelector<HTMLElement>("[data-focus-on-arrival]");
    const previous = last.current;
    last.current = { pathname: location.pathname, arrivalId: marked?.id || null };
    if (!previous || navigationType === "REPLACE") return;
    const samePage = previous.pathname === location.pathname;
    const target = samePage ? (marked && marked.id !== previous.arrivalId ? marked : null) : (marked ?? document.querySelector("main h1"));
    if (!(target instanceof HTMLElement)) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
  }, [location.pathname, location.search, navigationType]);
}
