// The bytes view's model: pi's stdout exactly as it arrived, chunk by chunk
// (one chunk per binary WebSocket frame), with the lines (records) found in
// it, so that a record can be shown as the bytes that carried it, joined
// across chunks with the splits marked.
//
// One RawView per stream of pi output (a new pi child or a reconnect starts a
// new one: the relay's replay then starts from the first byte again).
// Appending a chunk costs O(chunk size) (a scan for LF). Memory is bounded:
// beyond `maxBytes` the oldest chunks, and the lines that ended in them, are
// dropped, and the view says how much was. Chunks are kept as given, not
// copied: do not reuse a buffer after appending it.
//
// Lines are numbered from 1 in the order they complete, like the records a
// JsonlDecoder fed the same chunks returns; setLineSeq links a line to the
// record log entry it became.

import { tokenize, type ByteSource, type RawToken, type TokenizeOptions } from "./raw-tokens.ts";

export interface RawChunkInput {
  /** The arrival seq (e.g. of the record log, or a counter of frames). */
  seq: number;
  /** Arrival time, ms since the epoch. */
  at: number;
  bytes: Uint8Array;
}

export interface RawChunk extends RawChunkInput {
  /** Absolute offset of bytes[0] in the stream. */
  start: number;
  /** The chunk was bigger than the whole budget: only its tail is kept, from `start`. */
  clipped: boolean;
}

export interface RawLine {
  lineNo: number;
  /** Absolute offset of the line's first byte. */
  start: number;
  /** Absolute offset of its LF; null while the line is not finished (or, after endStream, it had none). */
  lf: number | null;
  /** End of the line's content, CR excluded. */
  contentEnd: number;
  /** The line ended with CR LF (or, for a last line without LF, with CR): the CR is not part of the record. */
  crlf: boolean;
  /** The entry the line became (setLineSeq). */
  recordSeq?: number;
}

export interface RawView {
  readonly maxBytes: number;
  chunks: RawChunk[];
  chunksHead: number;
  /** Offset of the next byte to arrive. */
  totalBytes: number;
  /** Offset of the oldest byte held. */
  firstByte: number;
  droppedChunks: number;
  /** Finished lines (and, last, the open one) from `linesHead` on. */
  lines: RawLine[];
  linesHead: number;
  nextLineNo: number;
  /** Start of the line still being received. */
  openStart: number;
  bySeq: Map<number, number>;
  ended: boolean;
}

export const DEFAULT_RAW_BYTES = 8 * 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export function createRawView(maxBytes = DEFAULT_RAW_BYTES): RawView {
  return {
    maxBytes: Math.max(1024, maxBytes),
    chunks: [],
    chunksHead: 0,
    totalBytes: 0,
    firstByte: 0,
    droppedChunks: 0,
    lines: [],
    linesHead: 0,
    nextLineNo: 1,
    openStart: 0,
    bySeq: new Map(),
    ended: false,
  };
}

/**
 * Append a chunk as received. Returns the line numbers it completed (as many
 * as a JsonlDecoder returns records for the same chunk): `count` lines from
 * `firstLine` on.
 */
export function appendChunk(view: RawView, input: RawChunkInput): { firstLine: number; count: number } {
  let bytes = input.bytes;
  const start = view.totalBytes;
  let clipped = false;
  if (bytes.length > view.maxBytes) {
    bytes = bytes.slice(bytes.length - view.maxBytes);
    clipped = true;
  }
  const offset = start + (input.bytes.length - bytes.length);
  const firstLine = view.nextLineNo;
  let count = 0;
  // LFs in the clipped-away head still end lines.
  let from = 0;
  for (let lf = input.bytes.indexOf(LF); lf !== -1; lf = input.bytes.indexOf(LF, from)) {
    const at = start + lf;
    const previous = lf > 0 ? input.bytes[lf - 1] : lastByteBefore(view, at);
    const crlf = previous === CR;
    view.lines.push({ lineNo: view.nextLineNo++, start: view.openStart, lf: at, contentEnd: crlf ? at - 1 : at, crlf });
    view.openStart = at + 1;
    from = lf + 1;
    count++;
  }
  if (bytes.length > 0) view.chunks.push({ seq: input.seq, at: input.at, bytes, start: offset, clipped });
  view.totalBytes = start + input.bytes.length;
  if (clipped) view.firstByte = offset;
  trim(view);
  return { firstLine, count };
}

/** The byte just before `offset`, while held (a CR ending the previous chunk). */
function lastByteBefore(view: RawView, offset: number): number | undefined {
  const last = view.chunks[view.chunks.length - 1];
  if (last === undefined || last.start + last.bytes.length !== offset) return undefined;
  return last.bytes[last.bytes.length - 1];
}

/** End of stream (pi exited): a final line without LF is still a line, as for JsonlDecoder.end(). */
export function endStream(view: RawView): { firstLine: number; count: number } {
  const firstLine = view.nextLineNo;
  view.ended = true;
  if (view.openStart >= view.totalBytes) return { firstLine, count: 0 };
  const crlf = lastByteBefore(view, view.totalBytes) === CR;
  view.lines.push({ lineNo: view.nextLineNo++, start: view.openStart, lf: null, contentEnd: crlf ? view.totalBytes - 1 : view.totalBytes, crlf });
  view.openStart = view.totalBytes;
  return { firstLine, count: 1 };
}

function trim(view: RawView): void {
  while (view.chunks.length - view.chunksHead > 1 && view.totalBytes - view.chunks[view.chunksHead]!.start > view.maxBytes) {
    view.chunksHead++;
    view.droppedChunks++;
  }
  const oldest = view.chunks[view.chunksHead];
  view.firstByte = Math.max(view.firstByte, oldest?.start ?? view.totalBytes);
  // Lines that ended before the first byte held are gone; one that began before it is kept, marked truncated.
  while (view.linesHead < view.lines.length) {
    const line = view.lines[view.linesHead]!;
    if (line.lf === null || line.lf >= view.firstByte) break;
    if (line.recordSeq !== undefined) view.bySeq.delete(line.recordSeq);
    view.linesHead++;
  }
  if (view.chunksHead > 256 && view.chunksHead * 2 > view.chunks.length) {
    view.chunks = view.chunks.slice(view.chunksHead);
    view.chunksHead = 0;
  }
  if (view.linesHead > 1024 && view.linesHead * 2 > view.lines.length) {
    view.lines = view.lines.slice(view.linesHead);
    view.linesHead = 0;
  }
}

/** What was dropped to stay within maxBytes. */
export function droppedSummary(view: RawView): { bytes: number; chunks: number; lines: number } {
  const firstHeldLine = view.lines[view.linesHead]?.lineNo ?? view.nextLineNo;
  return { bytes: view.firstByte, chunks: view.droppedChunks, lines: firstHeldLine - 1 };
}

/** Chunks held, oldest first. */
export function heldChunks(view: RawView): readonly RawChunk[] {
  return view.chunksHead === 0 ? view.chunks : view.chunks.slice(view.chunksHead);
}

/** A line by number, while held. O(1). */
export function lineByNo(view: RawView, lineNo: number): RawLine | undefined {
  const first = view.lines[view.linesHead];
  if (first === undefined || lineNo < first.lineNo) return undefined;
  return view.lines[view.linesHead + (lineNo - first.lineNo)];
}

/** The bytes of the line still arriving (no LF yet), as an absolute range; empty when none. */
export function pendingRange(view: RawView): { from: number; to: number } {
  return { from: Math.max(view.openStart, view.firstByte), to: view.totalBytes };
}

/** Link a line to the record log entry it became. */
export function setLineSeq(view: RawView, lineNo: number, seq: number): void {
  const line = lineByNo(view, lineNo);
  if (line === undefined) return;
  line.recordSeq = seq;
  view.bySeq.set(seq, lineNo);
}

/** The line a record came from, while held. */
export function lineOfSeq(view: RawView, seq: number): RawLine | undefined {
  const lineNo = view.bySeq.get(seq);
  return lineNo === undefined ? undefined : lineByNo(view, lineNo);
}

/** Index in view.chunks of the chunk holding `offset`, or -1. */
function chunkIndexAt(view: RawView, offset: number): number {
  let lo = view.chunksHead;
  let hi = view.chunks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const chunk = view.chunks[mid]!;
    if (offset < chunk.start) hi = mid - 1;
    else if (offset >= chunk.start + chunk.bytes.length) lo = mid + 1;
    else return mid;
  }
  return -1;
}

export interface LineSegment {
  chunkSeq: number;
  chunkAt: number;
  /** Absolute byte range of the line (LF included) inside this chunk. */
  from: number;
  to: number;
  /** The same range relative to the chunk's first byte. */
  chunkFrom: number;
  chunkTo: number;
}

/** The chunks that carried a line (its LF included), in order: more than one means the line was split. */
export function lineSegments(view: RawView, line: RawLine): LineSegment[] {
  const end = line.lf === null ? line.contentEnd : line.lf + 1;
  const segments: LineSegment[] = [];
  let index = chunkIndexAt(view, Math.max(line.start, view.firstByte));
  while (index !== -1 && index < view.chunks.length) {
    const chunk = view.chunks[index]!;
    if (chunk.start >= end) break;
    const from = Math.max(line.start, chunk.start);
    const to = Math.min(end, chunk.start + chunk.bytes.length);
    if (to > from) segments.push({ chunkSeq: chunk.seq, chunkAt: chunk.at, from, to, chunkFrom: from - chunk.start, chunkTo: to - chunk.start });
    index++;
  }
  return segments;
}

/** Sequential byte access with a cursor: O(1) per byte when reading forward. */
function byteSource(view: RawView): ByteSource {
  let cursor = view.chunksHead;
  return {
    byteAt(offset: number): number | undefined {
      if (offset < view.firstByte || offset >= view.totalBytes) return undefined;
      let chunk = view.chunks[cursor];
      if (chunk === undefined || offset < chunk.start || offset >= chunk.start + chunk.bytes.length) {
        const next = view.chunks[cursor + 1];
        if (next !== undefined && offset >= next.start && offset < next.start + next.bytes.length) cursor++;
        else {
          const found = chunkIndexAt(view, offset);
          if (found === -1) return undefined;
          cursor = found;
        }
        chunk = view.chunks[cursor]!;
      }
      return chunk.bytes[offset - chunk.start];
    },
    boundariesFrom(from: number): Iterator<{ offset: number; seq: number }> {
      let index = chunkIndexAt(view, Math.max(from, view.firstByte));
      if (index !== -1 && view.chunks[index]!.start < from) index++;
      return {
        next(): IteratorResult<{ offset: number; seq: number }> {
          const chunk = index === -1 ? undefined : view.chunks[index];
          if (chunk === undefined) return { done: true, value: undefined };
          index++;
          return { done: false, value: { offset: chunk.start, seq: chunk.seq } };
        },
      };
    },
  };
}

export interface RenderedBytes {
  tokens: RawToken[];
  /** The range's start was dropped to stay within maxBytes. */
  truncatedStart: boolean;
  /** maxTokens stopped the rendering. */
  truncated: boolean;
}

/** Display tokens for the absolute byte range [from, to) (see raw-tokens.ts). */
export function renderRange(view: RawView, from: number, to: number, options: TokenizeOptions = {}): RenderedBytes {
  const start = Math.max(from, view.firstByte);
  const { tokens, truncated } = tokenize(byteSource(view), start, Math.min(to, view.totalBytes), options);
  return { tokens, truncatedStart: from < view.firstByte, truncated };
}

/** A line as the bytes that carried it: joined across chunks, splits marked, its CR and LF shown. */
export function renderLine(view: RawView, line: RawLine, options: TokenizeOptions = {}): RenderedBytes {
  return renderRange(view, line.start, line.lf === null ? view.totalBytes : line.lf + 1, options);
}

/** A chunk as received (a character split at either edge is shown whole: its token starts before or ends after the chunk). */
export function renderChunk(view: RawView, chunk: RawChunk, options: TokenizeOptions = {}): RenderedBytes {
  return renderRange(view, chunk.start, chunk.start + chunk.bytes.length, options);
}
