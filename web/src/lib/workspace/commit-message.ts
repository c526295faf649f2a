// The commit message hint people expect from an IDE: the subject (first line)
// fits in 50 characters, 72 at most (what `git log --oneline`, GitHub and
// mail patches show whole), and the second line is blank so tools tell the
// subject from the body.

export const SUBJECT_SOFT_LIMIT = 50;
export const SUBJECT_HARD_LIMIT = 72;

export type CommitMessageHint = {
  /** Characters in the subject line. */
  subjectLength: number;
  /** "ok" within 50, "long" over 50, "too_long" over 72. */
  subject: "ok" | "long" | "too_long";
  /** The body starts on line two instead of after a blank line. */
  secondLineNotBlank: boolean;
  /** Nothing but white space: git would refuse it. */
  empty: boolean;
};

export function commitMessageHint(message: string): CommitMessageHint {
  const lines = message.split("\n");
  // Code points, not UTF-16 units: an emoji is one character to a person.
  const subjectLength = [...(lines[0] ?? "").trimEnd()].length;
  return {
    subjectLength,
    subject: subjectLength > SUBJECT_HARD_LIMIT ? "too_long" : subjectLength > SUBJECT_SOFT_LIMIT ? "long" : "ok",
    secondLineNotBlank: lines.length > 1 && (lines[1] ?? "").trim() !== "",
    empty: message.trim() === "",
  };
}

/** The sentence under the box for a hint (null: nothing to say). */
export function hintText(hint: CommitMessageHint): string | null {
  if (hint.empty) return null;
  if (hint.subject === "too_long") return `Subject is ${hint.subjectLength} characters: over ${SUBJECT_HARD_LIMIT}, it is cut in git log and on GitHub. Move the details to the body.`;
  if (hint.secondLineNotBlank) return "Leave the second line blank: git and its tools read everything up to the first blank line as the subject.";
  if (hint.subject === "long") return `Subject is ${hint.subjectLength} characters: keep it within ${SUBJECT_SOFT_LIMIT} if you can.`;
  return null;
}
