// What a viewer may read through the file API (issue 31, hole 10). A viewer
// link is made to be shared (a classroom QR code), so the file service keeps
// back from viewers the files that hold secrets rather than code:
// - files that are secrets by name (the deny-list below: .env and its
//   variants but not .env.example/.sample/.template, keys and certificates,
//   credential files of npm, PyPI, git, netrc, ssh, cloud CLIs…);
// - files that .gitignore ignores (a project's own statement of what is not
//   to be shared: build output, local config, and the secrets it knows of).
// A viewer's GET of such a file's content, or of its text in git's HEAD, is
// refused with 403 `viewer_secret`; the name still shows where names show
// (the tree hides ignored files for everyone; a secret-named file is listed
// and opening it says why it is closed). Drivers read everything as before.
// Rules apply to the path asked for and to where it really leads (a link to
// .env named notes.txt is still .env), judged on the opened descriptor.
import { GitignoreRules } from "./gitignore-rules.ts";
import { WorkspaceError } from "./workspace-error.ts";

/** Folders whose whole content is credentials (ssh keys, cloud CLIs, GnuPG, docker logins). */
const SECRET_FOLDERS = new Set([".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker"]);

/** `.env`, `.env.local`, `.env.production`… (all but the templates below). */
const ENV_FILE = /^\.env(\..+)?$/;
const ENV_TEMPLATE = /^\.env\.(example|sample|template)$/;

/** Exact names (lower case). */
const SECRET_NAMES = new Set([
  ".npmrc",
  ".pypirc",
  ".netrc",
  "_netrc",
  ".git-credentials",
  ".pgpass",
  ".htpasswd",
  ".dockercfg",
  "credentials.json",
  "credentials",
  "service-account.json",
  "terraform.tfstate",
  "terraform.tfstate.backup",
]);

/** Name patterns (lower case): keys, certificates and key stores, ssh keys, secrets.* files. */
const SECRET_PATTERNS = [/\.(pem|key|p12|pfx|jks|keystore|kdbx|asc|gpg)$/, /^id_(rsa|dsa|ecdsa|ed25519)/, /^secrets?\./];

/** True when `rel` (workspace-relative, "/"-separated) names a file that holds secrets by its name or folder. */
export function isSecretByName(rel: string): boolean {
  const segments = rel.toLowerCase().split("/");
  const name = segments[segments.length - 1] ?? "";
  if (segments.slice(0, -1).some((segment) => SECRET_FOLDERS.has(segment))) return true;
  if (ENV_FILE.test(name)) return !ENV_TEMPLATE.test(name);
  return SECRET_NAMES.has(name) || SECRET_PATTERNS.some((pattern) => pattern.test(name));
}

/**
 * Throws the 403 a viewer gets for `rel` (and for `realRel`, where it really
 * leads, when that differs), or returns when a viewer may read it.
 */
export async function checkViewerMayRead(rootReal: string, rel: string, realRel: string = rel): Promise<void> {
  const rules = new GitignoreRules(rootReal);
  for (const path of rel === realRel ? [rel] : [rel, realRel]) {
    if (isSecretByName(path)) {
      throw new WorkspaceError(403, "viewer_secret", `${JSON.stringify(rel)} may hold secrets (by its name); only a driver can open it.`);
    }
    if (await rules.isIgnored(path, false)) {
      throw new WorkspaceError(403, "viewer_secret", `${JSON.stringify(rel)} is ignored by .gitignore, so it is kept from viewers; only a driver can open it.`);
    }
  }
}
