/**
 * What JavaScript adds to a static page (one that does not hydrate: landing, legal, sign-in, sign-up),
 * as one small inline script instead of the whole app: the language mirror (spec: appLanguage), buttons
 * that wait for every consent box, a chosen file's name, and forms that are sent once, their button
 * saying it is busy.
 * When the same pages are rendered by the running app (a client-side navigation), React does this.
 * Self-contained: root serialises it into the page with `toString()`, so it uses nothing from outside.
 */
export function enhanceStaticPage(languageKey: string, language: string) {
  try {
    window.localStorage.setItem(languageKey, language);
  } catch {
    // Storage can be off (private mode); the server's cookie is the truth anyway.
  }
  const boxes = [...document.querySelectorAll<HTMLInputElement>("input[data-consent]")];
  const gated = [...document.querySelectorAll<HTMLButtonElement>("button[data-needs-consent]")];
  const gate = () => {
    for (const button of gated) button.disabled = !boxes.every((box) => box.checked);
  };
  if (gated.length) {
    gate();
    for (const box of boxes) box.addEventListener("change", gate);
  }
  // A file picker shows the chosen file's name, with a check, in the element it names.
  for (const picker of document.querySelectorAll<HTMLInputElement>("input[type=file][data-chosen-name]")) {
    const shown = document.getElementById(picker.dataset.chosenName ?? "");
    const name = shown?.querySelector("[data-name]");
    picker.addEventListener("change", () => {
      const file = picker.files?.[0];
      if (!shown || !name) return;
      name.textContent = file ? file.name : "";
      shown.hidden = !file;
    });
  }
  for (const form of document.querySelectorAll("form")) {
    form.addEventListener("submit", (event) => {
      if (form.dataset.sending) return event.preventDefault();
      form.dataset.sending = "yes";
      const button = event.submitter as HTMLButtonElement | null;
      if (button?.dataset.busyLabel) {
        button.dataset.idleLabel = button.textContent ?? "";
        button.textContent = button.dataset.busyLabel;
        button.setAttribute("aria-disabled", "true");
      }
    });
  }
  // Back from the next page (the browser's page cache): the forms can be sent again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const form of document.querySelectorAll("form")) delete form.dataset.sending;
    for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-idle-label]")) {
      button.textContent = button.dataset.idleLabel ?? "";
      button.removeAttribute("aria-disabled");
    }
  });
}
