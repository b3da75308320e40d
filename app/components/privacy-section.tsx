import { Form, Link } from "@remix-run/react";

import { FormAlert, SubmitButton } from "~/components/form-basics";

/** The section's words, worded by the server (app/routes/patient.profile.server.ts). */
interface PrivacyWords {
  intent: string;
  exportHref: string;
  title: string;
  exportTitle: string;
  exportBody: string;
  exportLink: string;
  closeTitle: string;
  erasedNow: string;
  kept: string;
  photosHint: string;
  policyLink: string;
  word: string;
  confirmLabel: string;
  submit: string;
  busy: string;
  refusalNow: string | null;
}

/**
 * A patient's data rights on their profile: download everything (a plain link, the file streams), and
 * close the account (a plain form: typing the word confirms; the server refuses with why).
 */
export function PrivacySection({ words, answer }: { words: PrivacyWords; answer: { error: string; typed: string } | null }) {
  const errorId = "close-account-error";
  return (
    <section id="your-data" aria-labelledby="your-data-title" className="card border border-base-300" data-testid="privacy-section">
      <div className="card-body gap-4 p-5">
        <h2 id="your-data-title" className="card-title">
          {words.title}
        </h2>
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold">{words.exportTitle}</h3>
          <p className="text-sm">{words.exportBody}</p>
          <a href={words.exportHref} download className="btn btn-outline self-start" data-testid="export-link">
            {words.exportLink}
          </a>
        </div>
        <Form method="post" className="flex flex-col gap-3" data-testid="close-account-form">
          <h3 className="font-semibold">{words.closeTitle}</h3>
          <p className="text-sm">{words.erasedNow}</p>
          <p className="text-sm">{words.kept}</p>
          <p className="text-sm">{words.photosHint}</p>
          <Link to="/privacy#rights" className="link text-sm">
            {words.policyLink}
          </Link>
          {answer ? (
            <div id={errorId}>
              <FormAlert message={answer.error} />
            </div>
          ) : words.refusalNow ? (
            <FormAlert message={words.refusalNow} />
          ) : null}
          <label htmlFor="close-confirm" className="font-medium">
            <LabelWithWord text={words.confirmLabel} />
          </label>
          <input
            id="close-confirm"
            name="confirm"
            required
            autoComplete="off"
            defaultValue={answer?.typed ?? ""}
            aria-invalid={answer ? true : undefined}
            aria-describedby={answer ? errorId : undefined}
            className={`input w-full sm:max-w-xs ${answer ? "input-error" : ""}`}
          />
          <SubmitButton name="intent" value={words.intent} className="btn btn-error self-start" busyLabel={words.busy}>
            {words.submit}
          </SubmitButton>
        </Form>
      </div>
    </section>
  );
}

/** The label with the word to type (its `<0>…</0>` part) set apart, so it never runs into the sentence around it. */
function LabelWithWord({ text }: { text: string }) {
  const [before = "", word = "", after = ""] = text.split(/<0>|<\/0>/);
  return (
    <>
      {before}
      {word ? <kbd className="kbd kbd-sm">{word}</kbd> : null}
      {after}
    </>
  );
}
