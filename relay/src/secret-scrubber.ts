// Keeps pi's secrets out of everything the relay says: the command line in a
// browser's `hello` (viewers' included), pi's stderr lines (relayed to every
// page, kept for late ones, printed in pier's log) and pi's exit errors.
//
// Two kinds of secret: those found by shape or place (@pier/protocol
// secrets.ts: sk-…, the argument after --api-key…), and the exact values
// the user handed pi, wherever they turn up: every argument after a
// sensitive option, and the value of every environment variable whose name
// says it holds a secret (ANTHROPIC_API_KEY, GITHUB_TOKEN…), which pi may
// echo in an error ("invalid x-api-key: abc…") in a shape no pattern knows.
import { REDACTED, SENSITIVE_OPTION, redactCommandLine, redactSecretsInText } from "@pier/protocol";

/** Environment variables whose value is a secret. */
const SECRET_ENV_NAME = /(?:API_?KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH|PRIVATE_?KEY|ACCESS_?KEY)/i;
/** Shorter values would redact ordinary words ("true", a port number). */
const MIN_SECRET_LENGTH = 8;

export class SecretScrubber {
  /** Longest first, so a secret that contains another is replaced whole. */
  readonly #values: string[];

  constructor(args: readonly string[], env: NodeJS.ProcessEnv) {
    const values = new Set<string>();
    for (const [name, value] of Object.entries(env)) {
      if (value !== undefined && value.length >= MIN_SECRET_LENGTH && SECRET_ENV_NAME.test(name)) values.add(value);
    }
    args.forEach((arg, i) => {
      const previous = i > 0 ? args[i - 1]! : "";
      if (SENSITIVE_OPTION.test(previous) && arg.length >= MIN_SECRET_LENGTH) values.add(arg);
      const eq = arg.indexOf("=");
      if (eq > 0 && SENSITIVE_OPTION.test(arg.slice(0, eq)) && arg.length - eq - 1 >= MIN_SECRET_LENGTH) values.add(arg.slice(eq + 1));
    });
    this.#values = [...values].sort((a, b) => b.length - a.length);
  }

  /** A command line as a browser may see it. */
  commandLine(command: readonly string[]): string[] {
    return redactCommandLine(command).map((arg) => this.text(arg));
  }

  /** Free text (a stderr line, an error) as a browser or a log may see it. */
  text(text: string): string {
    let out = text;
    for (const value of this.#values) if (out.includes(value)) out = out.split(value).join(REDACTED);
    return redactSecretsInText(out);
  }
}
