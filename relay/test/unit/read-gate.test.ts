// The read gate: what of the browsers' read-only commands reaches pi, per
// connection and per link, against a clock the test moves.
import { describe, expect, it } from "vitest";
import { LINK_IN_PI, READ_LIMITS, ReadGate, type Read } from "../../src/read-gate.ts";

type Owner = { id: string };

function setup() {
  const clock = { ms: 0 };
  const sent: Read<Owner>[] = [];
  const refused: { owner: string; id: string | undefined; message: string }[] = [];
  const gate = new ReadGate<Owner>(
    {
      send: (read) => sent.push(read),
      refuse: (owner, read, message) => refused.push({ owner: owner.id, id: read.id, message }),
    },
    () => clock.ms,
  );
  let seq = 0;
  const offer = (owner: Owner, options: { id?: string | null; key?: string; role?: "viewer" | "driver"; linkId?: string } = {}) => {
    const id = options.id === null ? undefined : (options.id ?? `${owner.id}:${++seq}`);
    gate.offer({ owner, role: options.role ?? "viewer", linkId: options.linkId ?? "link-v", id, type: "get_messages", key: options.key ?? `k${seq}`, line: Buffer.from("{}") });
    return id!;
  };
  return { gate, sent, refused, offer, clock };
}

describe("ReadGate", () => {
  const viewer = { id: "viewer" };
  const other = { id: "other" };
  const driver = { id: "driver" };

  it("refuses a read without an id, with one in flight, or with an id another browser used", () => {
    const { gate, sent, refused, offer } = setup();
    offer(viewer, { id: null });
    const first = offer(viewer);
    offer(other, { id: first });
    gate.noteId(driver, "d:prompt");
    offer(viewer, { id: "d:prompt" });
    expect(sent.map((r) => r.id)).toEqual([first]);
    expect(refused.map((r) => r.message)).toEqual([
      expect.stringContaining("needs a string id"),
      expect.stringContaining("still waiting for pi's answer"),
      expect.stringContaining("used by another browser"),
    ]);
  });

  it("holds the same read back while one is waiting, and sends it once that one is answered: pi never works on two copies", () => {
    const { gate, sent, refused, offer } = setup();
    const first = offer(viewer, { key: "same" });
    const second = offer(viewer, { key: "same" });
    const third = offer(viewer, { key: "same" });
    expect(refused).toEqual([]);
    expect(sent.map((r) => r.id)).toEqual([first]);
    gate.answered(first);
    expect(sent.map((r) => r.id)).toEqual([first, second]);
    gate.answered(second);
    gate.answered(third);
    expect(sent.map((r) => r.id)).toEqual([first, second, third]);
    // Nothing is left waiting: the same read goes at once again.
    const fourth = offer(viewer, { key: "same" });
    expect(sent.at(-1)!.id).toBe(fourth);
  });

  it("refuses the copies held back when pi restarts, and forgets those of a page that left", () => {
    const { gate, sent, refused, offer } = setup();
    offer(viewer, { key: "same" });
    const held = offer(viewer, { key: "same" });
    offer(other, { key: "same" });
    const gone = offer(other, { key: "same" });
    gate.leave(other);
    gate.reset();
    expect(refused.map((r) => r.id)).toEqual([held]);
    expect(sent.map((r) => r.id)).not.toContain(gone);
  });

  it("holds a page to its outstanding reads and its token bucket", () => {
    const { gate, sent, refused, offer, clock } = setup();
    const limit = READ_LIMITS.viewer.outstanding;
    for (let i = 0; i < 1000; i++) offer(viewer);
    expect(sent).toHaveLength(limit);
    expect(refused).toHaveLength(1000 - limit);
    // Answered at once, every time: the bucket stops the flood.
    for (const read of sent) gate.answered(read.id);
    let accepted = 0;
    for (let i = 0; i < 1000; i++) {
      const before = sent.length;
      const id = offer(viewer);
      if (sent.length > before) {
        accepted++;
        gate.answered(id);
      }
    }
    expect(accepted).toBe(READ_LIMITS.viewer.bucket.capacity - limit);
    clock.ms += 1000;
    offer(viewer);
    expect(sent.length).toBe(READ_LIMITS.viewer.bucket.capacity + 1);
  });

  it("lets a link's browsers have LINK_IN_PI reads in pi at once; the rest wait their turn, in order", () => {
    const { gate, sent, refused, offer } = setup();
    const pupils = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}` }));
    const ids = pupils.flatMap((pupil) => Array.from({ length: 6 }, () => offer(pupil)));
    expect(refused).toEqual([]);
    expect(sent).toHaveLength(LINK_IN_PI);
    expect(gate.waiting).toBe(ids.length - LINK_IN_PI);
    // Another link is not held up by this one.
    offer(driver, { role: "driver", linkId: "link-d" });
    expect(sent.at(-1)!.owner).toBe(driver);
    const done = new Set<string>();
    for (let next = sent[0]; next !== undefined; next = sent.find((r) => r.linkId === "link-v" && !done.has(r.id))) {
      done.add(next.id);
      gate.answered(next.id);
    }
    expect(sent.filter((r) => r.linkId === "link-v").map((r) => r.id)).toEqual(ids);
    expect(gate.waiting).toBe(0);
  });

  it("drops a departed browser's waiting reads; its reads in pi keep their place until answered", () => {
    const { gate, sent, offer } = setup();
    for (let i = 0; i < LINK_IN_PI; i++) offer({ id: `p${i}` });
    offer(viewer);
    offer(other);
    gate.leave(viewer);
    gate.leave({ id: "p0" });
    gate.answered(sent[0]!.id);
    expect(sent.at(-1)!.owner).toBe(other);
    expect(gate.waiting).toBe(0);
  });

  it("refuses the reads still waiting when pi restarts", () => {
    const { gate, refused, offer } = setup();
    for (let i = 0; i < LINK_IN_PI + 3; i++) offer({ id: `p${i}` });
    gate.reset();
    expect(refused).toHaveLength(3);
    expect(refused[0]!.message).toContain("pi restarted");
  });
});
