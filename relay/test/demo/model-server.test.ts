import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelServer } from "../../src/demo/model-server.ts";
import { startModelServer } from "../../src/demo/model-server.ts";
import type { Scenario } from "../../src/demo/scenario.ts";

const scenario: Scenario = {
  name: "unit",
  pace: { chunkChars: 4, delayMs: 0 },
  rules: [
    {
      when: { text: "tools" },
      turns: [
        {
          steps: [
            { kind: "reasoning", text: "Let me think." },
            { kind: "text", text: "Reading two files." },
            { kind: "toolCall", name: "read", arguments: { path: "README.md", limit: 20 } },
            { kind: "toolCall", name: "edit", arguments: { path: "a.txt", edits: [{ oldText: "a", newText: "b" }] }, id: "call_fixed" },
          ],
        },
      ],
    },
    {
      when: { text: "usage" },
      turns: [
        {
          steps: [
            { kind: "text", text: "hi" },
            { kind: "usage", promptTokens: 7, completionTokens: 3, reasoningTokens: 1 },
            { kind: "finish", reason: "length" },
          ],
        },
      ],
    },
    {
      when: { text: "overloaded" },
      turns: [
        { failFirst: [[{ kind: "httpError", status: 529, message: "Overloaded", errorType: "overloaded_error", headers: { "retry-after-ms": "10" } }]], steps: [{ kind: "text", text: "back" }] },
      ],
    },
    { when: { text: "cut" }, turns: [{ steps: [{ kind: "text", text: "partial" }, { kind: "cut" }] }] },
    { when: { text: "hang" }, turns: [{ steps: [{ kind: "text", text: "wait" }, { kind: "hang" }] }] },
  ],
};

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async () => {
  server = await startModelServer({ scenario });
  return server;
};

const chat = (base: string, prompt: string, init: RequestInit = {}, extra: Record<string, unknown> = {}) =>
  fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "pier-demo-model",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: [{ type: "text", text: prompt }] }],
      ...extra,
    }),
    ...init,
  });

/** Splits an SSE body into its `data:` payloads, parsing all but [DONE]. */
const events = (body: string): unknown[] =>
  body
    .split("\n\n")
    .filter((block) => block.length > 0)
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      const data = block.slice("data: ".length);
      return data === "[DONE]" ? data : JSON.parse(data);
    });

interface Chunk {
  object: string;
  model: string;
  choices: { index: number; delta: Record<string, any>; finish_reason: string | null }[];
  usage?: Record<string, any>;
}

describe("startModelServer", () => {
  it("streams reasoning, text and tool calls in OpenAI chunk format", async () => {
    const { url, requests } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await chat(url, "tools");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const all = events(await res.text());
    expect(all.at(-1)).toBe("[DONE]");
    const chunks = all.slice(0, -1) as Chunk[];
    for (const chunk of chunks) {
      expect(chunk.object).toBe("chat.completion.chunk");
      expect(chunk.model).toBe("pier-demo-model");
    }
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    expect(deltas.map((d) => d.reasoning_content ?? "").join("")).toBe("Let me think.");
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("Reading two files.");
    expect(deltas.filter((d) => typeof d.content === "string" && d.content.length > 0).length).toBeGreaterThan(1);

    const calls = new Map<number, { id?: string; name?: string; args: string }>();
    for (const toolCall of deltas.flatMap((d) => d.tool_calls ?? [])) {
      const call = calls.get(toolCall.index) ?? { args: "" };
      call.id ??= toolCall.id;
      call.name ??= toolCall.function?.name;
      call.args += toolCall.function?.arguments ?? "";
      calls.set(toolCall.index, call);
    }
    expect(calls.get(0)).toMatchObject({ name: "read", id: expect.stringMatching(/^call_/) });
    expect(JSON.parse(calls.get(0)!.args)).toEqual({ path: "README.md", limit: 20 });
    expect(calls.get(1)).toMatchObject({ name: "edit", id: "call_fixed" });
    expect(JSON.parse(calls.get(1)!.args)).toEqual({ path: "a.txt", edits: [{ oldText: "a", newText: "b" }] });

    const finishes = chunks.flatMap((chunk) => chunk.choices.map((c) => c.finish_reason)).filter((r) => r !== null);
    expect(finishes).toEqual(["tool_calls"]);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);

    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ label: "rule 0 turn 0", outcome: "finished" });
    expect(requests[0]!.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "tools" }] }]);
  });

  it("reports scripted usage and finish_reason, and omits usage unless asked", async () => {
    const { url } = await start();
    const chunks = events(await (await chat(url, "usage")).text()).slice(0, -1) as Chunk[];
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("length");
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10, completion_tokens_details: { reasoning_tokens: 1 } });

    const plain = events(await (await chat(url, "usage", {}, { stream_options: undefined })).text()).slice(0, -1) as Chunk[];
    expect(plain.some((chunk) => chunk.usage)).toBe(false);
    expect(plain.at(-1)!.choices[0]!.finish_reason).toBe("length");
  });

  it("fails the first attempt with a JSON 529, then streams the turn", async () => {
    const { url, requests } = await start();
    const failed = await chat(url, "overloaded");
    expect(failed.status).toBe(529);
    expect(failed.headers.get("retry-after-ms")).toBe("10");
    expect(await failed.json()).toEqual({ error: { message: "Overloaded", type: "overloaded_error", code: 529 } });
    const retried = await chat(url, "overloaded");
    expect(retried.status).toBe(200);
    expect(await retried.text()).toContain('"content":"back"');
    expect(requests.map((r) => [r.label, r.outcome])).toEqual([
      ["rule 2 turn 0 (failFirst 0)", "http-error"],
      ["rule 2 turn 0", "finished"],
    ]);
  });

  it("cuts the stream mid-way without finish_reason or [DONE]", async () => {
    const { url } = await start();
    const res = await chat(url, "cut");
    expect(res.status).toBe(200);
    let received = "";
    const read = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body!) received += decoder.decode(chunk, { stream: true });
    })();
    await expect(read).rejects.toThrow(/terminated/);
    expect(received).toContain("part");
    expect(received).not.toContain('finish_reason":"');
    expect(received).not.toContain("[DONE]");
  });

  it("hangs until the client aborts, and close() does not wait for a hanging reply", async () => {
    const { url, requests } = await start();
    const aborter = new AbortController();
    const res = await chat(url, "hang", { signal: aborter.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("data: ");
    aborter.abort();
    await expect(reader.read()).rejects.toThrow();
    await expect.poll(() => requests[0]?.outcome).toBe("aborted");

    await chat(url, "hang"); // headers arrive, the body never ends
    await server!.close();
    server = undefined;
  });

  it("answers an unmatched prompt with the built-in fallback", async () => {
    const { url } = await start();
    const body = await (await chat(url, "what is this?")).text();
    const text = (events(body).slice(0, -1) as Chunk[]).flatMap((chunk) => chunk.choices.map((c) => c.delta.content ?? "")).join("");
    expect(text).toBe("The scripted model has no reply for “what is this?”.");
  });

  it("lists its model", async () => {
    const { url } = await start();
    const res = await fetch(`${url}/models`);
    expect(await res.json()).toEqual({ object: "list", data: [{ id: "pier-demo-model", object: "model", created: 0, owned_by: "pier" }] });
  });

  it("answers bad requests with a clear 4xx and keeps serving", async () => {
    const { url } = await start();
    const post = (path: string, body: string) => fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const expectError = async (res: Response, status: number, message: RegExp) => {
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
    };
    await expectError(await post("/chat/completions", "{ nope"), 400, /not valid JSON/);
    await expectError(await post("/chat/completions", "[1]"), 400, /must be a JSON object/);
    await expectError(await post("/chat/completions", JSON.stringify({ stream: true })), 400, /`messages` must be an array/);
    await expectError(await post("/chat/completions", JSON.stringify({ messages: [] })), 400, /stream: true/);
    await expectError(await fetch(`${url}/chat/completions`), 405, /GET is not allowed/);
    await expectError(await post("/completions", "{}"), 404, /no such endpoint: POST \/v1\/completions/);
    await expectError(await fetch(url.replace(/\/v1$/, "/")), 404, /no such endpoint/);
    expect((await chat(url, "usage")).status).toBe(200);
  });

  it("survives a client that disconnects while sending its body", async () => {
    const { url } = await start();
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${url}/chat/completions`, { method: "POST", headers: { "content-length": "1000" } });
      req.on("error", () => resolve());
      req.write('{"messages":');
      setTimeout(() => req.destroy(), 20);
    });
    expect((await chat(url, "usage")).status).toBe(200);
  });

  it("refuses an invalid scenario", async () => {
    await expect(startModelServer({ scenario: { name: "x", rules: [{ when: {}, turns: [{ steps: [{ kind: "nope" }] }] }] } as unknown as Scenario })).rejects.toThrow(
      /steps\[0\]\.kind: unknown step kind "nope"/,
    );
  });
});
