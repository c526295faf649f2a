// The fields of a browser's "pier.*" request, checked like a command's: the
// typed request, or a sentence saying what is wrong.
import { MAX_SUGGESTION_LENGTH, type Focus, type RelayRequest } from "@pier/protocol";

const MAX_PATH_LENGTH = 4096;
/** Long enough for any name a person types; cleaned and cut to MAX_NAME_LENGTH by People. */
const MAX_RAW_NAME_LENGTH = 200;
const MAX_ID_LENGTH = 100;

type Checked = { ok: true; request: RelayRequest } | { ok: false; error: string };

const fail = (error: string): Checked => ({ ok: false, error });

export function readRelayRequest(type: RelayRequest["type"], value: Record<string, unknown>): Checked {
  switch (type) {
    case "pier.restart_pi": {
      const sessionFile = value["sessionFile"];
      if (sessionFile === undefined) return { ok: true, request: { type } };
      if (!isText(sessionFile, MAX_PATH_LENGTH) || sessionFile.includes("\0")) {
        return fail(`pier.restart_pi.sessionFile must be a file path (a non-empty string of at most ${MAX_PATH_LENGTH} characters)`);
      }
      return { ok: true, request: { type, sessionFile } };
    }
    case "pier.introduce": {
      const name = value["name"];
      if (!isText(name, MAX_RAW_NAME_LENGTH)) return fail(`pier.introduce.name must be a non-empty string of at most ${MAX_RAW_NAME_LENGTH} characters`);
      return { ok: true, request: { type, name } };
    }
    case "pier.create_link": {
      const role = value["role"];
      if (role !== "driver" && role !== "viewer") return fail('pier.create_link.role must be "driver" or "viewer"');
      const scope = value["scope"];
      if (scope !== undefined && scope !== "session" && scope !== "board") return fail('pier.create_link.scope must be "session" or "board"');
      return { ok: true, request: { type, role, ...(scope !== undefined ? { scope } : {}) } };
    }
    case "pier.revoke_link": {
      const linkId = value["linkId"];
      if (!isText(linkId, MAX_ID_LENGTH)) return fail("pier.revoke_link.linkId must be a link's id");
      return { ok: true, request: { type, linkId } };
    }
    case "pier.focus": {
      const focus = readFocus(value["focus"]);
      if (focus === null) return fail("pier.focus.focus must be {file: path or null, line: number or null, pane: string or null}");
      return { ok: true, request: { type, focus } };
    }
    case "pier.suggest": {
      const text = value["text"];
      if (!isText(text, MAX_SUGGESTION_LENGTH) || text.trim() === "") return fail(`pier.suggest.text must be a non-empty string of at most ${MAX_SUGGESTION_LENGTH} characters`);
      return { ok: true, request: { type, text } };
    }
    case "pier.resolve_suggestion": {
      const id = value["id"];
      const accepted = value["accepted"];
      if (!isText(id, MAX_ID_LENGTH) || typeof accepted !== "boolean") return fail("pier.resolve_suggestion needs id (a suggestion's id) and accepted (a boolean)");
      return { ok: true, request: { type, id, accepted } };
    }
    case "pier.trust_workspace": {
      const trusted = value["trusted"];
      const sessionFile = value["sessionFile"];
      if (typeof trusted !== "boolean") return fail("pier.trust_workspace.trusted must be true (trust the folder) or false (distrust it)");
      if (sessionFile === undefined) return { ok: true, request: { type, trusted } };
      if (!isText(sessionFile, MAX_PATH_LENGTH) || sessionFile.includes("\0")) {
        return fail(`pier.trust_workspace.sessionFile must be a file path (a non-empty string of at most ${MAX_PATH_LENGTH} characters)`);
      }
      return { ok: true, request: { type, trusted, sessionFile } };
    }
  }
}

function isText(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= max;
}

function readFocus(value: unknown): Focus | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { file, line, pane } = value as Record<string, unknown>;
  const fileOk = file === null || (isText(file, MAX_PATH_LENGTH) && !file.includes("\0"));
  const lineOk = line === null || (typeof line === "number" && Number.isInteger(line) && line >= 0 && line < 10_000_000);
  const paneOk = pane === null || isText(pane, 40);
  if (!fileOk || !lineOk || !paneOk) return null;
  return { file: file as string | null, line: line as number | null, pane: pane as string | null };
}
