// Secrets found by shape or by place, redacted in text, JSON string values
// and command lines. Shared: the relay redacts pi's command line and stderr
// with these rules before anything reaches a browser or a log, and the page
// redacts captures with the same ones (web/src/lib/wire-log/redaction.ts).
//
// By shape: sk-…, ghp_…, xoxb-…, AKIA…, AIza…, JWTs, Bearer/Basic
// credentials, PEM private keys, ?token= style URL parameters, FOO_API_KEY=…
// assignments. By place: the value of a key such as token, apiKey,
// authorization, password, secret; the argument after --api-key. Each is
// replaced by a marker of the same kind ("sk-[redacted]"), so a reader still
// sees what was there.

export const REDACTED = "[redacted]";

const SECRET_PATTERNS: readonly { re: RegExp; replace: string }[] = [
  { re: /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, replace: "-----BEGIN $1PRIVATE KEY-----[redacted]-----END $1PRIVATE KEY-----" },
  { re: /\b(sk-(?:ant-|proj-|or-)?)[A-Za-z0-9_-]{16,}/g, replace: "$1[redacted]" },
  { re: /\b(gh[pousr]_)[A-Za-z0-9]{20,}/g, replace: "$1[redacted]" },
  { re: /\b(github_pat_)[A-Za-z0-9_]{20,}/g, replace: "$1[redacted]" },
  { re: /\b(xox[abposr]-)[A-Za-z0-9-]{8,}/g, replace: "$1[redacted]" },
  { re: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: "$1[redacted]" },
  { re: /\b(AIza)[0-9A-Za-z_-]{30,}/g, replace: "$1[redacted]" },
  { re: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: "eyJ[redacted-jwt]" },
  // A credential, not prose: it has a digit somewhere.
  { re: /\b(Bearer|Basic)(\s+)(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{12,}/gi, replace: "$1$2[redacted]" },
  { re: /([?&#;](?:token|access_token|refresh_token|auth|key|api_key|apikey|secret|password|sig|signature|code)=)[^&#\s"'<>]{4,}/gi, replace: "$1[redacted]" },
  { re: /\b([A-Z0-9_]*(?:API_KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD)[A-Z0-9_]*)=(["']?)[^\s"']{8,}/g, replace: "$1=$2[redacted]" },
];

/** Keys whose string value is a secret whatever it looks like. */
export const SENSITIVE_KEY = /(?:^|[_-]|[a-z])(?:token|secret|password|passwd|api_?key|api-key|apikey|authorization|cookie|private_?key|credentials?)$/i;

/** Command-line options whose next argument is a secret. */
export const SENSITIVE_OPTION = /^--?[a-z-]*(?:api-?key|token|secret|password)$/i;

/** The secret patterns applied to free text. */
export function redactSecretsInText(text: string): string {
  let out = text;
  for (const { re, replace } of SECRET_PATTERNS) {
    re.lastIndex = 0;
    out = out.replace(re, replace);
  }
  return out;
}

/** A string value, knowing where it sits: its key, or the array element before it. */
export function redactSecretString(value: string, key: string | null, previousString: string | null): string {
  if (value.length >= 8 && !value.includes(REDACTED)) {
    if (key !== null && SENSITIVE_KEY.test(key)) return REDACTED;
    if (previousString !== null && SENSITIVE_OPTION.test(previousString)) return REDACTED;
    // --api-key=sk-… in one argument
    const eq = value.indexOf("=");
    if (eq > 0 && SENSITIVE_OPTION.test(value.slice(0, eq))) return `${value.slice(0, eq + 1)}${REDACTED}`;
  }
  return redactSecretsInText(value);
}

/**
 * A command line (pi's, in a hello or a capture header): secrets in
 * arguments, and the argument after --api-key and the like, however short.
 */
export function redactCommandLine(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    const previous = i > 0 ? args[i - 1]! : null;
    if (previous !== null && SENSITIVE_OPTION.test(previous) && arg !== "" && !arg.startsWith("-")) return REDACTED;
    return redactSecretString(arg, null, previous);
  });
}
