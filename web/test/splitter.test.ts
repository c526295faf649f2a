import { describe, expect, it } from "vitest";
import { sizeAfterDrag, sizeAfterKey } from "../src/lib/splitter.ts";

describe("a splitter's keys", () => {
  const chat = { shiftKey: false, value: 440, growKey: "ArrowLeft" as const, step: 16, bigStep: 64 };

  it("grows the pane with its grow key and shrinks it with the opposite one", () => {
    expect(sizeAfterKey({ ...chat, key: "ArrowLeft" })).toBe(456);
    expect(sizeAfterKey({ ...chat, key: "ArrowRight" })).toBe(424);
  });

  it("takes the big step with Shift, the plain one when there is no big step", () => {
    expect(sizeAfterKey({ ...chat, key: "ArrowLeft", shiftKey: true })).toBe(504);
    expect(sizeAfterKey({ ...chat, key: "ArrowRight", shiftKey: true })).toBe(376);
    expect(sizeAfterKey({ ...chat, bigStep: undefined, key: "ArrowLeft", shiftKey: true })).toBe(456);
  });

  it("never grows past max", () => {
    expect(sizeAfterKey({ ...chat, key: "ArrowLeft", max: 450 })).toBe(450);
    expect(sizeAfterKey({ ...chat, key: "ArrowLeft", max: 400 })).toBe(400);
  });

  it("ignores keys across its axis and others", () => {
    for (const key of ["ArrowUp", "ArrowDown", "Home", "End", "a", "Enter"]) expect(sizeAfterKey({ ...chat, key })).toBeNull();
    expect(sizeAfterKey({ ...chat, growKey: "ArrowUp", key: "ArrowUp" })).toBe(456);
    expect(sizeAfterKey({ ...chat, growKey: "ArrowUp", key: "ArrowDown" })).toBe(424);
    expect(sizeAfterKey({ ...chat, growKey: "ArrowUp", key: "ArrowLeft" })).toBeNull();
  });
});

describe("a splitter's drag", () => {
  it("grows a right-hand pane as the pointer moves left, and shrinks it moving right", () => {
    expect(sizeAfterDrag({ value: 440, at: 1000 }, 900, "ArrowLeft")).toBe(540);
    expect(sizeAfterDrag({ value: 440, at: 1000 }, 1050, "ArrowLeft")).toBe(390);
  });

  it("grows a lower pane as the pointer moves up, a left-hand pane as it moves right", () => {
    expect(sizeAfterDrag({ value: 200, at: 600 }, 550, "ArrowUp")).toBe(250);
    expect(sizeAfterDrag({ value: 200, at: 300 }, 340, "ArrowRight")).toBe(240);
  });

  it("stops at max", () => {
    expect(sizeAfterDrag({ value: 440, at: 1000 }, 100, "ArrowLeft", 700)).toBe(700);
  });
});
