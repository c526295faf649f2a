import { describe, expect, it } from "vitest";
import { appendLog, createRecordLog } from "../src/lib/session/record-log.ts";

describe("record log", () => {
  it("describes records and stays bounded", () => {
    const log = createRecordLog();
    for (let i = 0; i < 5; i++) appendLog(log, "in", "{}", { type: "message_update", assistantMessageEvent: { type: "text_delta" } }, i, 3);
    expect(log.entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(log.dropped).toBe(2);
    expect(log.entries[0]).toMatchObject({ direction: "in", type: "message_update", detail: "text_delta" });
    appendLog(log, "in", "oops", undefined, 9, 3);
    expect(log.entries.at(-1)).toMatchObject({ type: "invalid", raw: "oops" });
    appendLog(log, "in", "{}", { type: "response", command: "abort", success: false }, 9, 3);
    expect(log.entries.at(-1)?.detail).toBe("abort ✗");
  });
});
