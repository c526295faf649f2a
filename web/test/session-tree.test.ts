// The session tree view's pure model: describing pi's entries and laying out
// `get_tree`'s answer as rows, on hand-made trees, junk, a real pi 0.87.1
// capture (fixtures/get-tree-branched.json) and 5,000-entry trees.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_HIDDEN_KINDS,
  ancestorsOf,
  activePathKeys,
  describeEntry,
  explainEntry,
  filterRows,
  firstChildRowIndex,
  flattenTree,
  indexTree,
  parentRowIndex,
  treeFromEntries,
  treeStats,
  type SessionTreeData,
  type SessionTreeNode,
} from "../src/lib/sessions/session-tree.ts";

let clock = Date.parse("2026-05-01T10:00:00.000Z");
const ts = () => new Date((clock += 1000)).toISOString();

function entry(id: string, type: string, fields: Record<string, unknown> = {}) {
  return { type, id, parentId: null, timestamp: ts(), ...fields };
}
function message(id: string, message: Record<string, unknown>) {
  return entry(id, "message", { message: { timestamp: 0, ...message } });
}
const user = (id: string, text: string) => message(id, { role: "user", content: text });
const assistant = (id: string, text: string) => message(id, { role: "assistant", content: [{ type: "text", text }], stopReason: "stop" });
function node(e: ReturnType<typeof entry>, ...children: SessionTreeNode[]): SessionTreeNode {
  return { entry: e as SessionTreeNode["entry"], children };
}
/** A chain a → b → c …, built without recursion. */
function chain(entries: ReturnType<typeof entry>[]): SessionTreeNode {
  let tail: SessionTreeNode | null = null;
  for (let i = entries.length - 1; i >= 0; i--) tail = node(entries[i]!, ...(tail ? [tail] : []));
  return tail!;
}
const shape = (rows: { id: string; depth: number }[]) => rows.map((r) => `${r.id}@${r.depth}`);
const NONE = new Set<never>();

describe("describeEntry", () => {
  it("names each message role", () => {
    expect(describeEntry(user("u", "fix the\n greeting"))).toEqual({ kind: "user", title: "You: fix the greeting", forkable: true });
    expect(
      describeEntry(
        message("u2", {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", data: "", mimeType: "image/png" },
          ],
        }),
      ).title,
    ).toBe("You: look [image]");
    expect(describeEntry(assistant("a", "I changed greet.js"))).toEqual({ kind: "assistant", title: "pi: I changed greet.js", forkable: false });
    expect(describeEntry(message("a2", { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "src/a.js" } }], stopReason: "toolUse" })).title).toBe(
      "pi → read src/a.js",
    );
    expect(describeEntry(message("a3", { role: "assistant", content: [], stopReason: "aborted" })).title).toBe("pi: (stopped)");
    expect(describeEntry(message("a4", { role: "assistant", content: [], stopReason: "error", errorMessage: "529 overloaded" })).title).toBe("pi: error: 529 overloaded");
    expect(describeEntry(message("a5", { role: "assistant", content: [{ type: "thinking", thinking: "hmm" }], stopReason: "stop" })).title).toBe("pi: (no text)");
    expect(describeEntry(message("b", { role: "bashExecution", command: "npm test", output: "", exitCode: 1, cancelled: false, truncated: false }))).toEqual({
      kind: "bash",
      title: "$ npm test (exit 1)",
      forkable: false,
    });
    expect(describeEntry(message("b2", { role: "bashExecution", command: "sleep 9", cancelled: true })).title).toBe("$ sleep 9 (cancelled)");
    expect(describeEntry(message("s", { role: "system", content: "", sections: { a: "x", b: "y" }, toolsAdded: [{ name: "read" }] }))).toEqual({
      kind: "system",
      title: "System prompt · 2 sections · +1 tool",
      forkable: false,
    });
    expect(describeEntry(message("s2", { role: "system", content: "", toolsRemoved: [{ name: "write" }, { name: "edit" }] })).title).toBe("System prompt · −2 tools");
    expect(describeEntry(message("c", { role: "custom", customType: "todo", content: "3 open items", display: true }))).toMatchObject({ kind: "custom", title: "todo: 3 open items" });
    expect(describeEntry(message("cs", { role: "compactionSummary", summary: "We fixed X", tokensBefore: 1 }))).toMatchObject({ kind: "compaction", title: "Compacted: We fixed X" });
    expect(describeEntry(message("bs", { role: "branchSummary", summary: "Tried A", fromId: null }))).toMatchObject({ kind: "branchSummary", title: "Branch summary: Tried A" });
    expect(describeEntry(message("x", { role: "hologram" }))).toMatchObject({ kind: "other", title: "hologram message" });
  });

  it("titles answers and summaries by what the chat shows of their Markdown, and a prompt as it was typed", () => {
    expect(describeEntry(assistant("a", "## Done\n\n**Fixed** `greet<T>()` in [greet.js](src/greet.js)")).title).toBe("pi: Done Fixed greet<T>() in greet.js");
    expect(describeEntry(entry("c", "compaction", { summary: "## Goal\n- make *tests* pass", firstKeptEntryId: "x", tokensBefore: 1 })).title).toBe("Compacted: Goal make tests pass");
    expect(describeEntry(entry("b", "branch_summary", { fromId: "z", summary: "> Tried **A**" })).title).toBe("Branch summary: Tried A");
    expect(describeEntry(user("u", "why is **this** `x`?")).title).toBe("You: why is **this** `x`?");
  });

  it("titles a tool result after its call when the call is known", () => {
    const result = message("r", { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "…" }], isError: false });
    expect(describeEntry(result)).toEqual({ kind: "tool", title: "read", forkable: false });
    const calls = new Map([["c1", { name: "read", arguments: { path: "src/a.js" } }]]);
    expect(describeEntry(result, calls).title).toBe("read src/a.js");
    const failed = message("r2", { role: "toolResult", toolCallId: "c9", toolName: "bash", content: [], isError: true });
    expect(describeEntry(failed).title).toBe("bash (failed)");
  });

  it("names every other entry type", () => {
    expect(describeEntry(entry("m", "model_change", { provider: "pier-demo", modelId: "x" }))).toEqual({ kind: "model", title: "Model → pier-demo/x", forkable: false });
    expect(describeEntry(entry("t", "thinking_level_change", { thinkingLevel: "high" })).title).toBe("Thinking → high");
    expect(describeEntry(entry("u", "usage", { kind: "cache_warm", usage: { totalTokens: 50000 } }))).toMatchObject({ kind: "usage", title: "Usage (cache_warm): 50k tokens" });
    expect(describeEntry(entry("c", "compaction", { summary: "User discussed X,\nY and Z", firstKeptEntryId: "a", tokensBefore: 5 }))).toMatchObject({
      kind: "compaction",
      title: "Compacted: User discussed X, Y and Z",
    });
    expect(describeEntry(entry("e", "context_edit", { targetId: "a", replacement: null }))).toMatchObject({ kind: "edit", title: "Context edit: message left out" });
    expect(describeEntry(entry("e2", "context_edit", { targetId: "a", replacement: "x" })).title).toBe("Context edit: message replaced");
    expect(describeEntry(entry("b", "branch_summary", { fromId: "z", summary: "Explored A" }))).toMatchObject({ kind: "branchSummary", title: "Branch summary: Explored A" });
    expect(describeEntry(entry("x", "custom", { customType: "my-ext", data: {} }))).toMatchObject({ kind: "custom", title: "Extension data: my-ext" });
    expect(describeEntry(entry("y", "custom_message", { customType: "my-ext", content: [{ type: "text", text: "Injected" }], display: true })).title).toBe("my-ext: Injected");
    expect(describeEntry(entry("l", "label", { targetId: "a", label: "checkpoint-1" }))).toMatchObject({ kind: "label", title: "Label “checkpoint-1”" });
    expect(describeEntry(entry("l2", "label", { targetId: "a" })).title).toBe("Label cleared");
    expect(describeEntry(entry("n", "session_info", { name: "Refactor auth" }))).toMatchObject({ kind: "name", title: "Session named “Refactor auth”" });
    expect(describeEntry(entry("q", "quantum_leap"))).toEqual({ kind: "other", title: "Entry “quantum_leap”", forkable: false });
  });

  it("survives junk without throwing", () => {
    const junk: unknown[] = [
      null,
      undefined,
      42,
      "message",
      [],
      {},
      { type: "message" },
      { type: "message", message: null },
      { type: "message", message: { role: "user", content: 7 } },
      { type: "message", message: { role: "user", content: [null, 3, { type: "text", text: 5 }] } },
      { type: "message", message: { role: "assistant", content: "not an array" } },
      { type: "message", message: { role: "toolResult", toolCallId: {}, toolName: 3 } },
      { type: "message", message: { role: "system", sections: "nope", toolsAdded: 3 } },
      { type: "compaction", summary: { nested: true } },
      { type: "model_change", modelId: 12 },
      { type: 5 },
    ];
    for (const value of junk) {
      const d = describeEntry(value);
      expect(typeof d.title).toBe("string");
      expect(d.title).not.toContain("\n");
    }
    expect(describeEntry(null)).toEqual({ kind: "other", title: "Unreadable entry", forkable: false });
    expect(describeEntry({ type: "message" }).kind).toBe("other");
    expect(describeEntry({ type: "message", message: { role: "user", content: 7 } })).toEqual({ kind: "user", title: "You: (empty)", forkable: true });
    expect(describeEntry({ type: 5 }).title).toBe("Entry of no type");
  });

  it("keeps titles to one bounded line", () => {
    const d = describeEntry(user("u", `${"word ".repeat(500)}\n\nend`));
    expect(d.title.length).toBeLessThanOrEqual(160);
    expect(d.title.endsWith("…")).toBe(true);
  });
});

describe("flattenTree", () => {
  it("keeps a linear conversation at one depth and marks the path", () => {
    const tree = [chain([user("u1", "hi"), assistant("a1", "hello"), user("u2", "more"), assistant("a2", "sure")])];
    const rows = flattenTree(tree, { leafId: "a2", collapsed: new Set() });
    expect(shape(rows)).toEqual(["u1@0", "a1@0", "u2@0", "a2@0"]);
    expect(rows.every((r) => r.onActivePath && !r.isBranchPoint && !r.branchStart)).toBe(true);
    expect(rows.filter((r) => r.isLeaf).map((r) => r.id)).toEqual(["a2"]);
    expect(rows[0]).toMatchObject({ parentId: null, kind: "user", title: "You: hi", forkable: true, childCount: 1 });
    expect(rows[1]).toMatchObject({ parentId: "u1", forkable: false });
  });

  it("puts the leaf's branch first and one level deeper", () => {
    // u1 → a1 ┬ u2 → a2            (older branch)
    //         └ u3 → a3 ┬ u4       (leaf's branch, with its own fork)
    //                   └ u5 ← leaf
    const tree = [
      node(
        user("u1", "start"),
        node(
          assistant("a1", "ok"),
          chain([user("u2", "first try"), assistant("a2", "nope")]),
          node(user("u3", "second try"), node(assistant("a3", "better"), node(user("u4", "x")), node(user("u5", "y")))),
        ),
      ),
    ];
    const rows = flattenTree(tree, { leafId: "u5", collapsed: new Set() });
    expect(shape(rows)).toEqual(["u1@0", "a1@0", "u3@1", "a3@1", "u5@2", "u4@2", "u2@1", "a2@1"]);
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId.a1).toMatchObject({ isBranchPoint: true, childCount: 2 });
    expect(byId.a3).toMatchObject({ isBranchPoint: true, childCount: 2 });
    expect(rows.filter((r) => r.onActivePath).map((r) => r.id)).toEqual(["u1", "a1", "u3", "a3", "u5"]);
    expect(byId.u5!.isLeaf).toBe(true);
    expect(rows.filter((r) => r.branchStart).map((r) => r.id)).toEqual(["u3", "u5", "u4", "u2"]);
    expect(byId.u2!.parentId).toBe("a1");

    // Visual navigation: Left goes to the branch point above, Right to the first child.
    const at = (id: string) => rows.findIndex((r) => r.id === id);
    expect(parentRowIndex(rows, at("a2"))).toBe(at("a1"));
    expect(parentRowIndex(rows, at("u4"))).toBe(at("a3"));
    expect(parentRowIndex(rows, at("a1"))).toBe(-1);
    expect(firstChildRowIndex(rows, at("a1"))).toBe(at("u3"));
    expect(firstChildRowIndex(rows, at("u5"))).toBe(-1);
    expect(ancestorsOf(rows, "u4")).toEqual(["a3", "a1"]);

    // The same tree with the leaf on the older branch keeps pi's order.
    expect(shape(flattenTree(tree, { leafId: "a2" }))).toEqual(["u1@0", "a1@0", "u2@1", "a2@1", "u3@1", "a3@1", "u4@2", "u5@2"]);
  });

  it("lays out several roots, the leaf's first", () => {
    const tree = [chain([user("r1", "one"), assistant("r1a", "a")]), chain([user("r2", "two"), assistant("r2a", "b")]), node(user("r3", "three"))];
    const rows = flattenTree(tree, { leafId: "r2a" });
    expect(shape(rows)).toEqual(["r2@0", "r2a@0", "r1@0", "r1a@0", "r3@0"]);
    expect(rows.filter((r) => r.parentId === null).map((r) => r.id)).toEqual(["r2", "r1", "r3"]);
    expect(rows.filter((r) => r.branchStart).map((r) => r.id)).toEqual(["r2", "r1", "r3"]);
    expect(rows.filter((r) => r.onActivePath).map((r) => r.id)).toEqual(["r2", "r2a"]);
  });

  it("hides the descendants of a collapsed branch point, and only of a branch point", () => {
    const tree = [node(user("u1", "a"), chain([assistant("x1", "x"), user("x2", "x")]), chain([assistant("y1", "y"), user("y2", "y")]))];
    const rows = flattenTree(tree, { leafId: "y2", collapsed: new Set(["u1"]) });
    expect(shape(rows)).toEqual(["u1@0"]);
    expect(rows[0]).toMatchObject({ collapsed: true, isBranchPoint: true, childCount: 2 });
    // The leaf is collapsed away: the branch point stands in for it.
    expect(rows[0]!.isLeaf).toBe(true);
    // A chain entry is not collapsible.
    expect(shape(flattenTree(tree, { leafId: "y2", collapsed: new Set(["y1"]) }))).toEqual(["u1@0", "y1@1", "y2@1", "x1@1", "x2@1"]);
  });

  it("shows labels on their target, and no rows for label and usage entries", () => {
    const labelled: SessionTreeNode = { ...node(user("u1", "hi")), label: "checkpoint-1", labelTimestamp: ts() };
    labelled.children = [chain([assistant("a1", "hello"), entry("L", "label", { targetId: "u1", label: "checkpoint-1" }), entry("U", "usage", { kind: "cache_warm" }), user("u2", "next")])];
    const rows = flattenTree([labelled], { leafId: "u2" });
    expect(shape(rows)).toEqual(["u1@0", "a1@0", "u2@0"]);
    expect(rows[0]!.label).toBe("checkpoint-1");
    expect(rows[2]!.parentId).toBe("a1");
    // The leaf being a hidden entry marks its nearest shown ancestor.
    expect(flattenTree([labelled], { leafId: "U" }).find((r) => r.isLeaf)!.id).toBe("a1");
  });

  it("looks through hidden entries that have several children", () => {
    // a1 → label → { u2, u3 }: a1 is the branch point the person sees.
    const tree = [node(assistant("a1", "x"), node(entry("L", "label", { label: "k", targetId: "a1" }), node(user("u2", "b")), node(user("u3", "c"))))];
    const rows = flattenTree(tree, { leafId: "u3" });
    expect(shape(rows)).toEqual(["a1@0", "u3@1", "u2@1"]);
    expect(rows[0]).toMatchObject({ isBranchPoint: true, childCount: 2 });
  });

  it("hides system, model and bookkeeping rows on request, and tool-only assistant messages always", () => {
    const tree = [
      chain([
        entry("m", "model_change", { provider: "p", modelId: "x" }),
        message("s", { role: "system", content: "", sections: { a: "" } }),
        user("u1", "read it"),
        message("a1", { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "README.md" } }], stopReason: "toolUse" }),
        message("r1", { role: "toolResult", toolCallId: "c1", toolName: "read", content: [], isError: false }),
        assistant("a2", "done"),
        entry("n", "session_info", { name: "Work" }),
      ]),
    ];
    const all = flattenTree(tree, { leafId: "n" });
    expect(all.map((r) => `${r.id}:${r.kind}`)).toEqual(["m:model", "s:system", "u1:user", "r1:tool", "a2:assistant", "n:name"]);
    expect(all.find((r) => r.id === "r1")!.title).toBe("read README.md");
    const some = flattenTree(tree, { leafId: "n", hideKinds: DEFAULT_HIDDEN_KINDS });
    expect(shape(some)).toEqual(["u1@0", "r1@0", "a2@0"]);
    expect(some.at(-1)!.isLeaf).toBe(true);
    // A tool-only assistant message that is the current leaf is shown.
    expect(flattenTree(tree, { leafId: "a1" }).some((r) => r.id === "a1" && r.isLeaf)).toBe(true);
  });

  it("survives junk nodes, missing and repeated ids", () => {
    const tree = [
      null,
      42,
      { entry: null, children: null },
      { entry: user("dup", "one"), children: [{ entry: user("dup", "two"), children: "nope" }, { children: [] }] },
      { entry: { type: "message", message: { role: "user", content: "no id" } } },
    ];
    const rows = flattenTree(tree, { leafId: "dup", collapsed: NONE });
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rows.filter((r) => r.entryId === "dup")).toHaveLength(1);
    expect(rows.filter((r) => r.forkable).map((r) => r.id)).toEqual(["dup"]);
    expect(flattenTree(null, { leafId: null })).toEqual([]);
    expect(flattenTree({ tree: 3 }, { leafId: "x" })).toEqual([]);
    expect(flattenTree([node(user("a", "x"))], { leafId: "missing" })[0]).toMatchObject({ onActivePath: false, isLeaf: false });
  });

  it("filters into a flat list of matches, titles and labels alike", () => {
    const tree = [node(user("u1", "fix the greeting"), chain([assistant("a1", "Changed GREETING"), user("u2", "thanks")]), node(assistant("b1", "other")))];
    const index = indexTree(tree);
    const rows = flattenTree(index, { leafId: "u2" });
    expect(filterRows(rows, "greeting").map((r) => `${r.id}@${r.depth}`)).toEqual(["u1@0", "a1@0"]);
    expect(filterRows(rows, "fix greeting").map((r) => r.id)).toEqual(["u1"]);
    expect(filterRows(rows, "  ")).toHaveLength(rows.length);
  });

  it("reads a real pi 0.87.1 get_tree answer", () => {
    const response = JSON.parse(readFileSync(new URL("./fixtures/get-tree-branched.json", import.meta.url), "utf8")) as { data: SessionTreeData };
    const { tree, leafId } = response.data;
    const index = indexTree(tree);
    const rows = flattenTree(index, { leafId, hideKinds: DEFAULT_HIDDEN_KINDS });
    const text = rows.map((r) => `${"  ".repeat(r.depth)}${r.kind} ${r.title.slice(0, 40)}${r.label ? ` [${r.label}]` : ""}${r.isLeaf ? " ←" : ""}`);
    expect(text).toEqual([
      "user You: fix the greeting [checkpoint-1]",
      "assistant pi: Answer. The user and model discussed",
      "  branchSummary Branch summary: The user explored a diff",
      "  user You: try a different approach",
      "  assistant pi: Answer. The user and model discussed ←",
      "  user You: please read the README",
      "  tool read README.md",
      "  assistant pi: I read the README. It describes a ti",
      "  user You: now say hi in French",
      "  assistant pi: Answer. The user and model discussed",
      "  bash $ echo hello",
      "  user You: thanks",
      "  assistant pi: Answer. The user and model discussed",
      "  compaction Compacted: Answer. The user and model di",
      "  user You: after compaction",
      "  assistant pi: Answer. The user and model discussed",
    ]);
    // The leaf pi reports is the session_info entry: its assistant stands in.
    expect(index.descriptions[index.byEntryId.get(leafId!)!]!.kind).toBe("name");
    const all = flattenTree(index, { leafId });
    expect(all.map((r) => r.kind).slice(0, 3)).toEqual(["model", "thinking", "system"]);
    expect(all.find((r) => r.isLeaf)!.kind).toBe("name");
    expect(treeStats(index)).toEqual({ entries: 25, branches: 2 });
    const compaction = rows.find((r) => r.kind === "compaction")!;
    expect(explainEntry(index, compaction.id)).toMatch(/^Compaction: summarised \d+ earlier messages? \(.+ tokens\); the model sees the summary instead\.$/);
    expect(explainEntry(index, rows[0]!.id)).toMatch(/^Your message\. Forking/);
    expect(activePathKeys(index, leafId).at(-1)).toBe(tree[0]!.entry.id);
  });

  it("explains a compaction by the messages it summarised", () => {
    const tree = [
      chain([user("u1", "a"), assistant("a1", "b"), user("u2", "c"), assistant("a2", "d"), entry("c", "compaction", { summary: "s", firstKeptEntryId: "u2", tokensBefore: 12000 }), user("u3", "e")]),
    ];
    const index = indexTree(tree);
    expect(explainEntry(index, "c")).toBe("Compaction: summarised 2 earlier messages (12k tokens); the model sees the summary instead.");
    // Retain-none: firstKeptEntryId is the compaction's own id.
    (tree[0]!.children[0]!.children[0]!.children[0]!.children[0]!.entry as unknown as Record<string, unknown>).firstKeptEntryId = "c";
    expect(explainEntry(indexTree(tree), "c")).toMatch(/summarised 4 earlier messages/);
    expect(explainEntry(index, "nope")).toBe("");
  });
});

describe("5,000 entries", () => {
  function timed<T>(label: string, run: () => T): T {
    const start = performance.now();
    const value = run();
    console.log(`${label}: ${(performance.now() - start).toFixed(1)} ms`);
    return value;
  }

  it("flattens a 5,000-deep chain without recursion", () => {
    const entries = Array.from({ length: 5000 }, (_, i) => (i % 2 === 0 ? user(`u${i}`, `prompt ${i}`) : assistant(`a${i}`, `answer ${i}`)));
    // Written as JSON by hand: JSON.stringify itself overflows the stack on
    // this nesting (which is why pi's own get_tree fails on long sessions).
    let json = "";
    for (const e of entries) json += `{"entry":${JSON.stringify(e)},"children":[`;
    json += "]}".repeat(entries.length);
    const parsed = [JSON.parse(json)] as SessionTreeNode[];
    const index = timed("index 5,000-deep chain", () => indexTree(parsed));
    const rows = timed("flatten 5,000-deep chain", () => flattenTree(index, { leafId: "a4999", collapsed: new Set(), hideKinds: DEFAULT_HIDDEN_KINDS }));
    timed("index+flatten 5,000-deep chain again", () => flattenTree(parsed, { leafId: "a4999" }));
    expect(rows).toHaveLength(5000);
    expect(rows.every((r) => r.depth === 0 && r.onActivePath)).toBe(true);
    expect(rows.at(-1)!.isLeaf).toBe(true);
    expect(treeStats(index)).toEqual({ entries: 5000, branches: 1 });
    expect(parentRowIndex(rows, 4999)).toBe(-1);
  });

  it("flattens a 5,000-entry bushy tree", () => {
    // Every 10th entry forks: one branch runs on, the other is a 9-entry side chain.
    let count = 0;
    const make = () => {
      const i = count++;
      return i % 2 === 0 ? user(`e${i}`, `prompt ${i}`) : assistant(`e${i}`, `answer ${i}`);
    };
    const root = node(make());
    let spine = root;
    let leaf = root.entry.id;
    while (count < 5000) {
      const next = node(make());
      spine.children.push(next);
      if (count % 10 === 0 && count < 4990) {
        const side = Array.from({ length: 9 }, make);
        spine.children.push(chain(side));
      }
      spine = next;
      leaf = next.entry.id;
    }
    const parsed = [root];
    const index = timed("index 5,000-entry bushy tree", () => indexTree(parsed));
    const rows = timed("flatten 5,000-entry bushy tree", () => flattenTree(index, { leafId: leaf, collapsed: new Set() }));
    expect(rows).toHaveLength(index.size);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const leafRow = rows.find((r) => r.isLeaf)!;
    expect(leafRow.id).toBe(leaf);
    expect(leafRow.depth).toBeGreaterThan(400);
    expect(rows.at(-1)!.depth).toBe(1);
    const branchPoints = rows.filter((r) => r.isBranchPoint);
    expect(branchPoints.length).toBeGreaterThan(400);
    const collapsedAll = timed("flatten with the first branch point collapsed", () => flattenTree(index, { leafId: leaf, collapsed: new Set([branchPoints[0]!.id]) }));
    expect(collapsedAll.at(-1)!.id).toBe(branchPoints[0]!.id);
    expect(collapsedAll.at(-1)!.isLeaf).toBe(true);
    timed("ancestorsOf the leaf", () => expect(ancestorsOf(rows, leaf).length).toBe(leafRow.depth));
  });

  it("builds the tree from get_entries' flat list, 5,000 deep", () => {
    const entries: Record<string, unknown>[] = [];
    let parent: string | null = null;
    for (let i = 0; i < 5000; i++) {
      const e = i % 2 === 0 ? user(`u${i}`, `prompt ${i}`) : assistant(`a${i}`, `answer ${i}`);
      entries.push({ ...e, parentId: parent });
      parent = e.id;
    }
    const roots = timed("treeFromEntries 5,000", () => treeFromEntries(entries));
    const rows = timed("index+flatten 5,000 from entries", () => flattenTree(roots, { leafId: "a4999" }));
    expect(rows).toHaveLength(5000);
    expect(rows.every((r) => r.depth === 0)).toBe(true);
    expect(rows.at(-1)!.isLeaf).toBe(true);
  });
});

describe("treeFromEntries", () => {
  it("rebuilds pi's own get_tree answer from get_entries", () => {
    const response = JSON.parse(readFileSync(new URL("./fixtures/get-tree-branched.json", import.meta.url), "utf8")) as { data: SessionTreeData };
    const flat: unknown[] = [];
    const stack = [...response.data.tree].reverse();
    while (stack.length) {
      const n = stack.pop()!;
      flat.push(n.entry);
      stack.push(...[...n.children].reverse());
    }
    // Append order is timestamp order for this capture.
    flat.sort((a, b) => Date.parse((a as { timestamp: string }).timestamp) - Date.parse((b as { timestamp: string }).timestamp));
    const rebuilt = treeFromEntries(flat);
    const leafId = response.data.leafId;
    const strip = (rows: ReturnType<typeof flattenTree>) => rows.map((r) => [r.id, r.depth, r.label, r.isLeaf]);
    expect(strip(flattenTree(rebuilt, { leafId }))).toEqual(strip(flattenTree(response.data.tree, { leafId })));
  });

  it("resolves labels, orphans and junk like pi", () => {
    const roots = treeFromEntries([
      user("u1", "a"),
      { ...assistant("a1", "b"), parentId: "u1" },
      { ...entry("L1", "label", { targetId: "u1", label: "first" }), parentId: "a1" },
      { ...entry("L2", "label", { targetId: "a1", label: "gone" }), parentId: "L1" },
      { ...entry("L3", "label", { targetId: "a1" }), parentId: "L2" },
      { ...user("o1", "orphan"), parentId: "nowhere" },
      { ...user("self", "self"), parentId: "self" },
      null,
      { type: "message" },
      { ...user("u1", "duplicate id"), parentId: null },
    ]);
    expect(roots.map((n) => n.entry.id)).toEqual(["u1", "o1", "self"]);
    expect(roots[0]!.label).toBe("first");
    expect(roots[0]!.children[0]!.label).toBeUndefined();
    expect(treeFromEntries("nope")).toEqual([]);
  });
});
