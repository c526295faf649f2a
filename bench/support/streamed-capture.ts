// A capture of a session that streamed a lot, written with the page's own
// CaptureWriter: `prompts` prompts, each answered in `deltasPerAnswer` text
// deltas (a paragraph every 40) ending "The end of answer N.". The replay
// and export benchmarks read ~100,000 events of it; e2e's replay-large spec
// a quarter of that.
import { CaptureWriter } from "../../web/src/lib/wire-log/capture.ts";

export interface StreamedCaptureOptions {
  prompts: number;
  deltasPerAnswer: number;
  /** Who wrote it (the header's `pier`, the relay's version in the hello, the provider). */
  by: string;
}

export function streamedCapture({ prompts, deltasPerAnswer, by }: StreamedCaptureOptions): { text: string; events: number } {
  const start = Date.parse("2026-12-01T10:00:00.000Z");
  const writer = new CaptureWriter({ startedAt: start, pier: by, redact: { secrets: true } });
  const encoder = new TextEncoder();
  let t = start;
  const you = { clientId: "c1", name: "Reader", role: "driver", colour: "#3b5bdb" };
  const hello = {
    type: "hello",
    protocolVersion: 1,
    clientId: "c1",
    relayVersion: by,
    cwd: `/tmp/${by}`,
    piCommand: ["pi", "--mode", "rpc"],
    demo: null,
    child: { state: "running", epoch: 1, pid: 1, startedAt: start },
    replay: { bytes: 0, truncated: false },
    recentStderr: [],
    peers: 1,
    limits: { maxCommandBytes: 16 * 1024 * 1024 },
    sessions: null,
    you,
    people: [you],
  };
  writer.addFrame(JSON.stringify(hello), t);
  writer.addFrame(JSON.stringify({ type: "replay_end" }), t);
  const bytes = (record: unknown) => writer.addBytes(encoder.encode(`${JSON.stringify(record)}\n`), (t += 1));
  const usage = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 20, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  for (let p = 1; p <= prompts; p++) {
    const question = `Question ${p}: tell me a long story`;
    writer.addSent(JSON.stringify({ id: `c1:${p}`, type: "prompt", message: question }), (t += 200));
    bytes({ type: "response", id: `c1:${p}`, command: "prompt", success: true });
    bytes({ type: "agent_start" });
    bytes({ type: "turn_start" });
    const user = { role: "user", content: [{ type: "text", text: question }], timestamp: t };
    bytes({ type: "message_start", message: user });
    bytes({ type: "message_end", message: user });
    const shell = { role: "assistant", content: [], api: "openai-completions", provider: by, model: by, usage, stopReason: "stop", timestamp: t };
    bytes({ type: "message_start", message: shell });
    bytes({ type: "message_update", usage, assistantMessageEvent: { type: "text_start", contentIndex: 0 } });
    let text = "";
    const delta = (piece: string) => {
      text += piece;
      bytes({ type: "message_update", usage, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: piece } });
    };
    for (let d = 0; d < deltasPerAnswer; d++) delta(d % 40 === 39 ? "\n\n" : `word${d} `);
    delta(`The end of answer ${p}.`);
    bytes({ type: "message_update", usage, assistantMessageEvent: { type: "text_end", contentIndex: 0, content: text } });
    bytes({ type: "message_end", message: { ...shell, content: [{ type: "text", text }] } });
    bytes({ type: "turn_end" });
    bytes({ type: "agent_end", messages: [] });
    bytes({ type: "agent_settled" });
  }
  writer.finish();
  return { text: writer.text(), events: writer.eventCount };
}
