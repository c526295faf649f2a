import { describe, expect, it } from "vitest";
import { readRelayRequest } from "../../src/relay-requests.ts";

describe("readRelayRequest", () => {
  it.each([
    ["pier.introduce", { name: "Ada" }, { type: "pier.introduce", name: "Ada" }],
    ["pier.create_link", { role: "viewer" }, { type: "pier.create_link", role: "viewer" }],
    ["pier.revoke_link", { linkId: "link-3" }, { type: "pier.revoke_link", linkId: "link-3" }],
    ["pier.focus", { focus: { file: "src/a.ts", line: 10, pane: null } }, { type: "pier.focus", focus: { file: "src/a.ts", line: 10, pane: null } }],
    ["pier.focus", { focus: { file: null, line: null, pane: "chat" } }, { type: "pier.focus", focus: { file: null, line: null, pane: "chat" } }],
    ["pier.suggest", { text: "try the tests" }, { type: "pier.suggest", text: "try the tests" }],
    ["pier.resolve_suggestion", { id: "s1", accepted: true }, { type: "pier.resolve_suggestion", id: "s1", accepted: true }],
    ["pier.restart_pi", {}, { type: "pier.restart_pi" }],
    ["pier.trust_workspace", { trusted: true }, { type: "pier.trust_workspace", trusted: true }],
    ["pier.trust_workspace", { trusted: false, sessionFile: "/s/a.jsonl" }, { type: "pier.trust_workspace", trusted: false, sessionFile: "/s/a.jsonl" }],
  ] as const)("reads %s %j", (type, fields, expected) => {
    expect(readRelayRequest(type, { type, ...fields })).toEqual({ ok: true, request: expected });
  });

  it.each([
    ["pier.introduce", { name: "" }],
    ["pier.introduce", { name: 42 }],
    ["pier.introduce", { name: "x".repeat(201) }],
    ["pier.create_link", { role: "admin" }],
    ["pier.revoke_link", {}],
    ["pier.focus", { focus: { file: "a", line: -1, pane: null } }],
    ["pier.focus", { focus: { file: "a\u0000b", line: 1, pane: null } }],
    ["pier.focus", { focus: "src/a.ts" }],
    ["pier.suggest", { text: "   " }],
    ["pier.suggest", { text: "x".repeat(4001) }],
    ["pier.resolve_suggestion", { id: "s1", accepted: "yes" }],
    ["pier.restart_pi", { sessionFile: "" }],
    ["pier.trust_workspace", {}],
    ["pier.trust_workspace", { trusted: "yes" }],
    ["pier.trust_workspace", { trusted: true, sessionFile: 7 }],
  ] as const)("refuses %s %j with a sentence", (type, fields) => {
    const result = readRelayRequest(type, { type, ...fields });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.startsWith(type)).toBe(true);
  });
});
