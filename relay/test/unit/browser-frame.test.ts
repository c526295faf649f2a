import { describe, expect, it } from "vitest";
import { classifyBrowserFrame } from "../../src/browser-frame.ts";

const frame = (text: string) => classifyBrowserFrame(Buffer.from(text, "utf8"));

describe("classifyBrowserFrame", () => {
  it("forwards a valid command's own bytes unchanged", () => {
    const text = '{"id":"c1:1","type":"prompt","message":"hi \\u2028 \u2028 é"}';
    const result = frame(text);
    expect(result).toMatchObject({ kind: "command", type: "prompt", id: "c1:1" });
    expect(result.kind === "command" && result.line.toString("utf8")).toBe(text);
  });

  it("accepts an extension UI response", () => {
    expect(frame('{"type":"extension_ui_response","id":"u1","confirmed":true}')).toMatchObject({ kind: "command" });
  });

  it("refuses raw line breaks, even where JSON would allow them", () => {
    expect(frame('{"type":"get_state"}\n{"type":"abort"}')).toMatchObject({ kind: "refused", code: "raw_newline" });
    expect(frame('{"type":\n"get_state"}')).toMatchObject({ kind: "refused", code: "raw_newline" });
    expect(frame('{"type":"get_state"}\r')).toMatchObject({ kind: "refused", code: "raw_newline" });
  });

  it("refuses frames over the size limit before parsing", () => {
    const big = Buffer.from(JSON.stringify({ type: "prompt", message: "x".repeat(2000) }));
    expect(classifyBrowserFrame(big, 1000)).toMatchObject({ kind: "refused", code: "frame_too_large" });
  });

  it.each([
    ["not json", "invalid_json"],
    ["", "invalid_json"],
    ["null", "invalid_command"],
    ["[]", "invalid_command"],
    ['"get_state"', "invalid_command"],
    ["{}", "invalid_command"],
    ['{"type":42}', "invalid_command"],
    ['{"type":"rm_rf"}', "invalid_command"],
    ['{"type":"prompt"}', "invalid_command"],
    ['{"type":"set_auto_retry","enabled":"yes"}', "invalid_command"],
    ['{"type":"get_state","id":7}', "invalid_command"],
  ])("refuses %s as %s with a message", (text, code) => {
    const result = frame(text);
    expect(result).toMatchObject({ kind: "refused", code });
    expect(result.kind === "refused" && result.message.length).toBeGreaterThan(10);
  });

  it("names the refused command's type and id when readable", () => {
    expect(frame('{"id":"c1:9","type":"prompt","message":5}')).toMatchObject({
      kind: "refused",
      command: { type: "prompt", id: "c1:9" },
    });
  });

  it("recognises relay requests and refuses unknown ones", () => {
    expect(frame('{"type":"pier.restart_pi"}')).toEqual({ kind: "request", request: { type: "pier.restart_pi" } });
    expect(frame('{"type":"pier.shell","cmd":"ls"}')).toMatchObject({ kind: "refused", code: "unknown_request" });
  });

  it("reads a restart request's session file, and refuses one that is not a path", () => {
    expect(frame('{"type":"pier.restart_pi","sessionFile":"/s/a.jsonl"}')).toEqual({
      kind: "request",
      request: { type: "pier.restart_pi", sessionFile: "/s/a.jsonl" },
    });
    for (const bad of ['""', "42", "null", '"a\\u0000b"', JSON.stringify("x".repeat(5000))]) {
      expect(frame(`{"type":"pier.restart_pi","sessionFile":${bad}}`)).toMatchObject({ kind: "refused", code: "invalid_command" });
    }
  });

  it("hands the parsed command on, so the relay can check the files it names", () => {
    const result = frame('{"type":"switch_session","sessionPath":"/x.jsonl"}');
    expect(result).toMatchObject({ kind: "command", command: { type: "switch_session", sessionPath: "/x.jsonl" } });
  });
});
