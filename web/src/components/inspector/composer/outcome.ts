// What became of the last command the composer sent.
export interface Outcome {
  status: "sending" | "done";
  /** The line that went out. */
  line: string;
  type: string | null;
  id: string | null;
  /** Sent although the local check failed. */
  invalid: boolean;
  /** The local check's finding when invalid. */
  localError: string | null;
  ok?: boolean;
  error?: string;
  response?: unknown;
}
