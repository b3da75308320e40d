// A panel whose words the server chose in the reader's language (app/components/worded-panel.tsx draws
// it): a title, a few lines, and at most one plain form or a link to a page of its own.

interface WordedField {
  name: string;
  label: string;
  /** A password is never filled in again: its `value` is ignored. */
  kind: "select" | "textarea" | "text" | "password";
  options?: Array<{ value: string; label: string }>;
  value?: string;
  error?: string;
}

export interface WordedPanelProps {
  id: string;
  title: string;
  lines: string[];
  /** A page that says more (the payment's receipt). */
  link?: { to: string; label: string };
  form?: {
    /** Where it posts; by default the page it is on. */
    action?: string;
    intent: string;
    fields: WordedField[];
    submit: string;
    /** Shown folded behind this line until opened (a disclosure: no script needed). */
    disclosure?: string;
    /** Open the disclosure (the form came back with errors). */
    open?: boolean;
  };
}
