// The stdout record router: answers to pending reads are cut out whole (the
// header, id AND command, byte for byte), wherever pi's reads cut them;
// everything else goes on to everyone unchanged and in order.
import { describe, expect, it } from "vitest";
import { ResponseRouter, responseHeader } from "../../src/response-router.ts";

type Owner = { name: string };

function setup() {
  const shared: Buffer[] = [];
  const routed = new Map<Owner, Buffer[]>();
  const answered: string[] = [];
  const router = new ResponseRouter<Owner>({
    shared: (bytes) => shared.push(Buffer.from(bytes)),
    routed: (owner, bytes) => routed.set(owner, [...(routed.get(owner) ?? []), Buffer.from(bytes)]),
    answered: (owner, id) => answered.push(`${owner.name}:${id}`),
  });
  return {
    router,
    answered,
    shared: () => Buffer.concat(shared).toString(),
    sharedChunks: shared,
    routedTo: (owner: Owner) => Buffer.concat(routed.get(owner) ?? []).toString(),
  };
}

const response = (id: string, command: string, data = '{"x":1}') => `{"id":${JSON.stringify(id)},"type":"response","command":"${command}","success":true,"data":${data}}\n`;
const event = (n: number) => `{"type":"message_update","n":${n}}\n`;

/** Every way of cutting `text` into two reads. */
function* splits(text: string): Generator<string[]> {
  for (let at = 0; at <= text.length; at++) yield [text.slice(0, at), text.slice(at)];
}

describe("ResponseRouter", () => {
  const viewer = { name: "viewer" };
  const driver = { name: "driver" };

  it("with nothing pending, passes every chunk through as it came (the same Buffer)", () => {
    const { router, sharedChunks, shared } = setup();
    const chunk = Buffer.from(event(1) + response("a", "get_state") + '{"partial":');
    router.push(chunk);
    expect(sharedChunks).toHaveLength(1);
    expect(shared()).toBe(chunk.toString());
  });

  it("cuts a pending read's answer out, whole, however pi's reads split the stream", () => {
    const stream = event(1) + response("v:1", "get_messages", '{"messages":[{"text":"a\\"b\\nc"}]}') + event(2) + response("d:7", "prompt");
    for (const [first, second] of splits(stream)) {
      const { router, shared, routedTo, answered } = setup();
      router.expect("v:1", "get_messages", viewer);
      router.push(Buffer.from(first!));
      router.push(Buffer.from(second!));
      expect(routedTo(viewer)).toBe(response("v:1", "get_messages", '{"messages":[{"text":"a\\"b\\nc"}]}'));
      expect(shared()).toBe(event(1) + event(2) + response("d:7", "prompt"));
      expect(answered).toEqual(["viewer:v:1"]);
    }
  });

  it("routes byte by byte too (a header split anywhere waits for the rest)", () => {
    const stream = event(1) + response("v:1", "get_state") + event(2);
    const { router, shared, routedTo } = setup();
    router.expect("v:1", "get_state", viewer);
    for (const byte of Buffer.from(stream)) router.push(Buffer.from([byte]));
    expect(routedTo(viewer)).toBe(response("v:1", "get_state"));
    expect(shared()).toBe(event(1) + event(2));
  });

  it("takes only the answer whose id AND command match: a forged id on another command stays shared", () => {
    const { router, shared, routedTo } = setup();
    // A viewer's get_state that reused the id of a driver's prompt: the prompt's answer is the driver's (everyone's).
    router.expect("d:7", "get_state", viewer);
    router.push(Buffer.from(response("d:7", "prompt") + response("d:7", "get_state")));
    expect(shared()).toBe(response("d:7", "prompt"));
    expect(routedTo(viewer)).toBe(response("d:7", "get_state"));
  });

  it("leaves an answer in the middle of a line alone, and lines that only look alike", () => {
    const { router, shared, routedTo } = setup();
    router.expect("v:1", "get_state", viewer);
    const lookalike = `{"type":"x","text":${JSON.stringify(response("v:1", "get_state").trim())}}\n`;
    const otherId = response("v:10", "get_state");
    router.push(Buffer.from(lookalike + otherId + '{"id":"v:1","type":"response","command":"get_stats"}\n'));
    expect(routedTo(viewer)).toBe("");
    expect(shared()).toBe(lookalike + otherId + '{"id":"v:1","type":"response","command":"get_stats"}\n');
  });

  it("reads escaped ids as pi writes them", () => {
    const id = 'we"ird\\id\u0001é\u2028';
    const stream = response(id, "get_state") + event(3);
    let rounds = 0;
    const { router, shared, routedTo } = setup();
    for (const [first, second] of splits(stream)) {
      router.expect(id, "get_state", driver);
      router.push(Buffer.from(first!));
      router.push(Buffer.from(second!));
      rounds++;
    }
    expect(routedTo(driver)).toBe(response(id, "get_state").repeat(rounds));
    expect(shared()).toBe(event(3).repeat(rounds));
  });

  it("routes two pending answers to their own askers, in any order", () => {
    const { router, shared, routedTo, answered } = setup();
    router.expect("a", "get_state", viewer);
    router.expect("b", "get_commands", driver);
    router.push(Buffer.from(response("b", "get_commands") + event(1) + response("a", "get_state")));
    expect(routedTo(driver)).toBe(response("b", "get_commands"));
    expect(routedTo(viewer)).toBe(response("a", "get_state"));
    expect(shared()).toBe(event(1));
    expect(answered).toEqual(["driver:b", "viewer:a"]);
    expect(router.pendingCount).toBe(0);
  });

  it("gives a held line start to everyone when pi's stdout ends, and forgets pending reads on reset", () => {
    const { router, shared } = setup();
    router.expect("v:1", "get_state", viewer);
    router.push(Buffer.from('{"id":"v:'));
    expect(shared()).toBe("");
    router.reset();
    expect(shared()).toBe('{"id":"v:');
    expect(router.pendingCount).toBe(0);
    expect(router.isPending("v:1")).toBe(false);
  });

  it("a read sent while a line is half written does not look at that line", () => {
    const { router, shared, routedTo } = setup();
    router.push(Buffer.from('{"type":"message_update","text":"'));
    router.expect("v:1", "get_state", viewer);
    router.push(Buffer.from('hi"}\n' + response("v:1", "get_state")));
    expect(shared()).toBe('{"type":"message_update","text":"hi"}\n');
    expect(routedTo(viewer)).toBe(response("v:1", "get_state"));
  });

  it("builds the header pi writes (JSON.stringify of { id, type, command, … })", () => {
    const record = { id: "x\ny", type: "response", command: "get_state", success: true };
    expect(JSON.stringify(record).startsWith(responseHeader("x\ny", "get_state").toString())).toBe(true);
  });
});
