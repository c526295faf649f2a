// A scripted-model scenario for bench/stream.bench.ts: one answer of
// `deltas` text deltas, each one SSE chunk (so one message_update on pi's
// wire), sent in bursts with a short pause between bursts so the whole
// answer takes about `durationMs`. (The model server cannot wait less than a
// timer tick between two chunks; bursts give 8,000 deltas a second.)
//
// Every delta carries the next marker, `m` and five digits ("m00042"), so a
// page can tell which delta is on screen by the last marker in the DOM. The
// text has the shapes a real answer has (paragraphs, headings, lists, code
// fences, a table) so that Markdown rendering is exercised, not just one
// ever-growing paragraph; markers inside code fences stay literal text.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.

export interface StreamScenarioOptions {
  deltas: number;
  durationMs: number;
  /** Deltas per burst. */
  burst?: number;
}

/** The marker delta `n` (0-based) carries. */
export function marker(n: number): string {
  return `m${String(n).padStart(5, "0")}`;
}

/** The text of delta `n`: its marker, with the Markdown around it that makes the blocks. */
export function deltaText(n: number): string {
  const m = marker(n);
  // A block every 40 deltas; its kind cycles through what answers contain.
  const block = Math.floor(n / 40);
  const at = n % 40;
  const kind = block % 6;
  const opening = block === 0 ? "" : "\n\n";
  if (kind === 2) {
    // A code fence: markers as code lines; the fence closes in the block's last delta.
    if (at === 0) return `${opening}\`\`\`ts\nconst ${m} = 1;`;
    if (at === 39) return `\nconst ${m} = 1;\n\`\`\``;
    return `\nconst ${m} = ${at};`;
  }
  if (kind === 4) {
    // A list, four items of ten deltas.
    if (at % 10 === 0) return `${at === 0 ? opening : "\n"}- item ${m} `;
    return `${m} `;
  }
  if (kind === 5 && at === 0) return `${opening}## Part ${m}`;
  if (kind === 5 && at === 1) return `\n\n| step | ${m} |\n|---|---|\n| one | two |\n\nThen ${m} `;
  if (at === 0) return `${opening}${m} `;
  // Some inline Markdown inside paragraphs.
  if (at % 13 === 0) return `**${m}** `;
  if (at % 17 === 0) return `\`${m}\` `;
  return `${m} `;
}

export function streamScenario({ deltas, durationMs, burst = 80 }: StreamScenarioOptions): Record<string, unknown> {
  const bursts = Math.ceil(deltas / burst);
  const pauseMs = Math.max(1, Math.round(durationMs / bursts));
  const steps: Record<string, unknown>[] = [];
  for (let n = 0; n < deltas; n++) {
    if (n > 0 && n % burst === 0) steps.push({ kind: "pause", ms: pauseMs });
    const text = deltaText(n);
    // chunkChars ≥ the text: exactly one SSE chunk per step.
    steps.push({ kind: "text", text, chunkChars: text.length, delayMs: 0 });
  }
  return {
    name: "bench-stream",
    description: `One answer of ${deltas} text deltas in about ${durationMs} ms (bench/stream.bench.ts); later prompts get a short answer.`,
    rules: [{ when: { promptNumber: 1 }, turns: [{ steps }] }],
    fallback: { steps: [{ kind: "text", text: "Short answer." }] },
  };
}
