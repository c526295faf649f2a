// @vitest-environment jsdom
// From a click in the transcript to what the inspector looks up, and back.
import { describe, expect, it } from "vitest";
import { blockLinked, elementOfTarget, messageLinked, targetOfElement } from "../src/lib/transcript/transcript-targets.ts";

function transcript(): HTMLElement {
  const root = document.createElement("div");
  root.innerHTML = `
    <div data-message-index="0"><p id="user">hi</p></div>
    <div data-message-index="1">
      <div data-block="0"><p id="thought">hmm</p></div>
      <div data-block="1"><div data-tool-call-id="call:1"><button id="head">bash</button></div></div>
    </div>
    <div data-marker-seq="4"><span id="marker">retry</span></div>`;
  document.body.replaceChildren(root);
  return root;
}

describe("transcript targets", () => {
  it("names the element a click landed in", () => {
    const root = transcript();
    expect(targetOfElement(root.querySelector("#user"))).toEqual({ kind: "message", index: 0 });
    expect(targetOfElement(root.querySelector("#thought"))).toEqual({ kind: "message", index: 1, block: 0 });
    expect(targetOfElement(root.querySelector("#head"))).toEqual({ kind: "tool", toolCallId: "call:1" });
    expect(targetOfElement(root.querySelector("#marker"))).toEqual({ kind: "marker", seq: 4 });
    expect(targetOfElement(root)).toBeNull();
  });

  it("finds the element a target names", () => {
    const root = transcript();
    expect(elementOfTarget(root, { kind: "message", index: 1, block: 0 })?.contains(root.querySelector("#thought"))).toBe(true);
    expect(elementOfTarget(root, { kind: "message", index: 1, block: 9 })?.dataset["messageIndex"]).toBe("1");
    expect(elementOfTarget(root, { kind: "tool", toolCallId: "call:1" })?.id).toBe("");
    expect(elementOfTarget(root, { kind: "tool", toolCallId: 'a"b' })).toBeNull();
    expect(elementOfTarget(root, { kind: "marker", seq: 4 })?.dataset["markerSeq"]).toBe("4");
  });

  it("says what is outlined", () => {
    expect(messageLinked({ kind: "message", index: 2 }, 2)).toBe(true);
    expect(messageLinked({ kind: "message", index: 2, block: 0 }, 2)).toBe(false);
    expect(blockLinked({ kind: "message", index: 2, block: 0 }, 2, 0)).toBe(true);
    expect(blockLinked(null, 2, 0)).toBe(false);
  });
});
