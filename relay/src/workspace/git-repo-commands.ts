// Switching off the commands a repository configures for itself, for git run
// in a folder that is not trusted (or for a viewer). Measured with git 2.39
// on the commands git-facts.ts runs (rev-parse, symbolic-ref, status,
// cat-file blob, config):
//
// - `filter.<driver>.clean` / `.process`, named by .gitattributes, run during
//   `status` for any file whose stat data changed: an empty clean and
//   process (with `required` false, else status dies) stop them. Drivers can
//   come from any config file, `include.path` and `includeIf` ones included,
//   so every driver name is listed first with `git config --get-regexp`
//   (reading config runs nothing; includes are followed as status follows
//   them) and each one is overridden.
// - `status` recurses into submodules, whose own config (.git/modules/…)
//   has drivers of its own: `--ignore-submodules=all` (see git-facts.ts).
// - In a partial clone, `cat-file` fetches a missing blob from the promisor
//   remote, running `remote.<name>.uploadpack` (or an ext:: URL, an ssh
//   command…): `protocol.allow=never`, and `never` for every protocol the
//   config names (a repository's `protocol.<name>.allow` beats the general
//   one), stops every transport.
// - `core.fsmonitor` and hooks (`core.hooksPath`) are off too.
// - None of these commands runs a diff, so `diff.<driver>.textconv`,
//   `diff.<driver>.command` and `diff.external` are never reached; they are
//   emptied anyway, so a diff added later fails closed rather than running
//   the repository's program.
//
// Overrides travel as GIT_CONFIG_COUNT/KEY_n/VALUE_n, which outrank every
// config file, reach the git processes git itself starts, and take any
// subsection name (`-c` would split one containing "=").

/** The config keys whose values can name a command git runs for our read-only commands. */
export const REPO_COMMAND_KEYS = /^(filter|diff|protocol)\./;
/** The same, as a `git config --get-regexp` pattern. */
export const REPO_COMMAND_PATTERN = "^(filter|diff|protocol)\\.";
/** More overrides than this: a config built to exhaust us. git is then not run at all. */
export const MAX_OVERRIDES = 4000;

export type ConfigOverride = readonly [key: string, value: string];

/** Always set when the repository's commands are off, whatever its config says. */
const FIXED: readonly ConfigOverride[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["protocol.allow", "never"],
  ["diff.external", ""],
];

/**
 * The overrides for the config key names git listed (`section.sub.var`,
 * section and variable lower-cased, the subsection as written), or null
 * when there are too many to pass.
 */
export function repoCommandOverrides(keyNames: readonly string[]): ConfigOverride[] | null {
  const overrides = new Map<string, string>(FIXED.map(([key, value]) => [key, value]));
  for (const name of keyNames) {
    const first = name.indexOf(".");
    const last = name.lastIndexOf(".");
    // "diff.external", "protocol.allow": no subsection (covered by FIXED).
    if (first === -1 || first === last) continue;
    const section = name.slice(0, first);
    const prefix = name.slice(0, last);
    if (section === "filter") {
      for (const variable of ["clean", "smudge", "process"]) overrides.set(`${prefix}.${variable}`, "");
      overrides.set(`${prefix}.required`, "false");
    } else if (section === "diff") {
      overrides.set(`${prefix}.textconv`, "");
      overrides.set(`${prefix}.command`, "");
    } else if (section === "protocol") {
      overrides.set(`${prefix}.allow`, "never");
    }
  }
  if (overrides.size > MAX_OVERRIDES) return null;
  return [...overrides];
}

/**
 * `env` with the overrides appended to any GIT_CONFIG_COUNT it already has
 * (the person's own come first; ours, later, win).
 */
export function withConfigOverrides(env: NodeJS.ProcessEnv, overrides: readonly ConfigOverride[]): NodeJS.ProcessEnv {
  const next: NodeJS.ProcessEnv = { ...env };
  const existing = Number(env.GIT_CONFIG_COUNT ?? "0");
  let index = Number.isInteger(existing) && existing > 0 ? existing : 0;
  if (index === 0) delete next.GIT_CONFIG_COUNT;
  for (const [key, value] of overrides) {
    next[`GIT_CONFIG_KEY_${index}`] = key;
    next[`GIT_CONFIG_VALUE_${index}`] = value;
    index++;
  }
  next.GIT_CONFIG_COUNT = String(index);
  return next;
}

/** `git config -z --name-only --get-regexp` output: names separated by NUL. */
export function parseConfigNames(output: string): string[] {
  return output.split("\0").filter((name) => name !== "" && REPO_COMMAND_KEYS.test(name));
}
