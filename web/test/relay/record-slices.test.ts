import { describe, expect, it } from "vitest";
import { RecordAssembler, sliceLine, sliceRecord, type SliceMessage } from "../../src/lib/relay/record-slices.ts";
import { parseLongLineHere } from "../../src/lib/relay/long-line-parser.ts";

import { entriesAnswer as answer } from "./entries-answer.ts";

const clone = <T>(value: T): T => structuredClone(value);

function assemble(messages: SliceMessage[], onItems?: (field: string, items: unknown[]) => void) {
  const assembler = new RecordAssembler(onItems);
  const results = messages.map((m) => assembler.push(structuredClone(m)));
  return { last: results.at(-1), before: results.slice(0, -1) };
}

describe("record slices", () => {
  it("cut a whole session's entries newest first, and put them back in order", () => {
    const record = answer(10);
    const messages = sliceRecord(clone(record), 123, 3);
    expect(messages.map((m) => (m.kind === "slice" ? `slice ${m.start}+${m.items.length}` : m.kind))).toEqual(["head", "slice 9+1", "slice 6+3", "slice 3+3", "slice 0+3"]);
    const seen: number[] = [];
    const { last, before } = assemble(messages, (_field, items) => seen.push(items.length));
    expect(before.every((r) => r === null)).toBe(true);
    expect(last).toEqual({ kind: "record", value: record, length: 123, sliced: true, checked: true });
    expect(seen).toEqual([1, 3, 3, 3]);
  });

  it("a get_messages answer is cut at its messages; a record without a big array crosses whole", () => {
    const messages = { id: "c:2", type: "response", command: "get_messages", success: true, data: { messages: Array.from({ length: 5 }, (_, n) => ({ role: "user", content: `${n}` })) } };
    const cut = sliceRecord(clone(messages), 9, 2);
    expect(cut[0]).toMatchObject({ kind: "head", field: "messages", total: 5, slices: 3, checked: false });
    expect(assemble(cut).last).toEqual({ kind: "record", value: messages, length: 9, sliced: true, checked: false });
    const small = sliceRecord(clone(answer(2)), 9, 2);
    expect(small).toEqual([{ kind: "whole", value: answer(2), length: 9 }]);
    expect(sliceRecord({ type: "message_end", message: { role: "assistant" } }, 4, 2)).toEqual([{ kind: "whole", value: { type: "message_end", message: { role: "assistant" } }, length: 4 }]);
  });

  it("entries with an id twice, or not entries, are not checked (the page then checks them as it always did)", () => {
    const twice = answer(5);
    twice.data.entries[3]!.id = "e1";
    expect(sliceRecord(twice, 1, 2)[0]).toMatchObject({ kind: "head", checked: false });
    const junk = answer(5) as { data: { entries: unknown[] } };
    junk.data.entries[2] = { no: "id" };
    expect(sliceRecord(junk, 1, 2)[0]).toMatchObject({ kind: "head", checked: false });
  });

  it("refuses slices that do not fit their head, rather than assembling something else", () => {
    const messages = sliceRecord(clone(answer(10)), 1, 3);
    expect(() => new RecordAssembler().push(messages[1]!)).toThrow(/before its head/);
    const twice = new RecordAssembler();
    twice.push(messages[0]!);
    twice.push(messages[1]!);
    expect(() => twice.push(messages[1]!)).toThrow(/does not fit/);
    const short = new RecordAssembler();
    short.push({ ...(messages[0] as Extract<SliceMessage, { kind: "head" }>), total: 11 });
    expect(() => messages.slice(1).forEach((m) => short.push(m))).toThrow(/held 10 items, not 11/);
  });

  it("parses a line's bytes: its length in UTF-16 units, a trailing CR dropped, text that is not JSON kept as text", () => {
    const json = JSON.stringify(answer(7));
    const line = new TextEncoder().encode(`${json}\r`);
    expect(parseLongLineHere(line)).toEqual({ kind: "record", value: answer(7), length: json.length, sliced: false, checked: false });
    expect(sliceLine(line, 3)[0]).toMatchObject({ kind: "head", total: 7, slices: 3, length: json.length });
    const bad = parseLongLineHere(new TextEncoder().encode('{"cut":'));
    expect(bad).toMatchObject({ kind: "invalid", raw: '{"cut":' });
  });
});
