// @vitest-environment jsdom
// BlockRuns puts a growing answer's finished blocks into runs before the
// block being written: a run that is full is never touched again, and
// nothing may be lost, doubled or reordered.
import { describe, expect, test } from "vitest";
import { BlockRuns, RUN_SIZE } from "../src/lib/markdown/block-runs.ts";

function item(n: number): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const p = document.createElement("p");
  p.textContent = `block ${n}`;
  fragment.append(p);
  return fragment;
}

function setUp() {
  const host = document.createElement("div");
  const tail = document.createElement("div");
  tail.className = "md-tail";
  host.append(tail);
  return { host, tail, runs: new BlockRuns(host, tail) };
}

const texts = (host: Element) => [...host.querySelectorAll(":scope > .md-run > p")].map((p) => p.textContent);
const sizes = (host: Element) => [...host.querySelectorAll(":scope > .md-run")].map((run) => run.childElementCount);

describe("BlockRuns", () => {
  test("no items, no runs", () => {
    const { host, runs } = setUp();
    expect(runs.count).toBe(0);
    expect(host.querySelectorAll(".md-run")).toHaveLength(0);
  });

  test("every item once, in order, in runs of RUN_SIZE before the tail; only the first run is marked first", () => {
    const { host, tail, runs } = setUp();
    const count = RUN_SIZE * 3 + 5;
    for (let n = 0; n < count; n++) runs.append(item(n));
    expect(sizes(host)).toEqual([RUN_SIZE, RUN_SIZE, RUN_SIZE, 5]);
    expect(texts(host)).toEqual(Array.from({ length: count }, (_, n) => `block ${n}`));
    expect(host.lastElementChild).toBe(tail);
    expect([...host.querySelectorAll(".md-run")].map((run) => run.className)).toEqual(["md-run first", "md-run", "md-run", "md-run"]);
    expect(runs.count).toBe(4);
  });

  test("a full run keeps its elements as items are appended", () => {
    const { host, runs } = setUp();
    for (let n = 0; n < RUN_SIZE; n++) runs.append(item(n));
    const first = host.querySelector(".md-run")!;
    const firstBlock = first.firstElementChild;
    for (let n = RUN_SIZE; n < RUN_SIZE * 2 + 3; n++) runs.append(item(n));
    expect(host.querySelector(".md-run")).toBe(first);
    expect(first.firstElementChild).toBe(firstBlock);
    expect(first.childElementCount).toBe(RUN_SIZE);
  });

  test("an item of several blocks counts once, and the fragment is emptied", () => {
    const { host, runs } = setUp();
    const several = item(0);
    several.append(item(1), item(2));
    runs.append(several);
    expect(several.childNodes).toHaveLength(0);
    expect(texts(host)).toEqual(["block 0", "block 1", "block 2"]);
  });

  test("clear removes every run and starts counting again", () => {
    const { host, tail, runs } = setUp();
    for (let n = 0; n < RUN_SIZE + 1; n++) runs.append(item(n));
    runs.clear();
    expect(runs.count).toBe(0);
    expect([...host.children]).toEqual([tail]);
    runs.append(item(7));
    expect(texts(host)).toEqual(["block 7"]);
    expect(host.querySelector(".md-run")!.className).toBe("md-run first");
  });
});
