import { describe, expect, test } from "vitest";
import { allLessons } from "../src/lib/wire-log/lessons.ts";
import { allWireTerms, wireTerm } from "../src/lib/transcript/wire-terms.ts";

describe("record names in a text open their lesson", () => {
  test("every term has a lesson the inspector can show", () => {
    const lessons = allLessons();
    const missing = allWireTerms().filter((t) => !lessons.has(t.lessonKey));
    expect(missing).toEqual([]);
  });

  test("the demo tour's words are terms, with the record type to list", () => {
    expect(wireTerm("message_update")).toMatchObject({ lessonKey: "event:message_update", recordType: "message_update" });
    expect(wireTerm("text_delta")).toMatchObject({ lessonKey: "delta:text_delta", recordType: "message_update" });
    expect(wireTerm(" tool_execution_end ")).toMatchObject({ recordType: "tool_execution_end" });
  });

  test("other code is not a term", () => {
    expect(wireTerm("src/greetings.js")).toBeUndefined();
    expect(wireTerm("isError: false")).toBeUndefined();
    expect(wireTerm("")).toBeUndefined();
  });
});
