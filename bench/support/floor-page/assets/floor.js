// The stream bench's floor (bench/stream.bench.ts): the least a page must
// do to show an answer streaming in, measured beside Pier under the same
// load (the same pier, pi, scripted model and Chromium on the same cores).
// It takes the relay's bytes, frames and parses them, and once per
// animation frame appends the text the frame's deltas carry as a plain
// block, then keeps the newest text in view. No Markdown, no transcript,
// no state beyond that, no inspector: what is left of the latency here is
// the machine's and the transport's, and the rest of Pier's is Pier's.
const socket = new WebSocket(`ws://${location.host}/ws`);
socket.binaryType = "arraybuffer";
const decoder = new TextDecoder();
const log = document.querySelector('[role="log"]');
const prompt = document.querySelector("textarea");
let clientId = null;
let pending = [];
let partialLine = "";
let frameRequested = false;
let answer = null;
let sent = 0;

socket.onmessage = (event) => {
  if (typeof event.data === "string") {
    const frame = JSON.parse(event.data);
    if (frame.type === "hello") clientId = frame.clientId;
    return;
  }
  pending.push(new Uint8Array(event.data));
  if (!frameRequested) {
    frameRequested = true;
    requestAnimationFrame(showArrived);
  }
};

function showArrived() {
  frameRequested = false;
  for (const bytes of pending) partialLine += decoder.decode(bytes, { stream: true });
  pending = [];
  const lines = partialLine.split("\n");
  partialLine = lines.pop();
  let text = "";
  for (const line of lines) {
    if (line === "") continue;
    const record = JSON.parse(line);
    if (record.type === "message_update" && record.assistantMessageEvent?.type === "text_delta") text += record.assistantMessageEvent.delta;
  }
  if (text === "") return;
  if (answer === null) {
    answer = document.createElement("article");
    answer.setAttribute("aria-label", "pi");
    log.append(answer);
  }
  // A block per frame: appending to one ever-longer paragraph would lay all of it out again every frame.
  const block = document.createElement("div");
  block.textContent = text;
  answer.append(block);
  log.scrollTop = log.scrollHeight;
}

prompt.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || clientId === null) return;
  event.preventDefault();
  socket.send(JSON.stringify({ id: `${clientId}:${++sent}`, type: "prompt", message: prompt.value }));
  prompt.value = "";
});
