// pi's answer to a whole-session get_entries, as the long-line tests need
// it: `count` user messages in a chain, each with the text `text(n)`.

export const entry = (n: number, text: (n: number) => string = (n) => `m${n}`) => ({
  type: "message",
  id: `e${n}`,
  parentId: n === 0 ? null : `e${n - 1}`,
  message: { role: "user", content: text(n), timestamp: n },
});

export const entriesAnswer = (count: number, text?: (n: number) => string) => ({
  id: "c:1",
  type: "response",
  command: "get_entries",
  success: true,
  data: { entries: Array.from({ length: count }, (_, n) => entry(n, text)), leafId: `e${count - 1}` },
});
