// The link between the protocol inspector and the transcript, both ways:
// the element the selected record changed is outlined (and can be scrolled
// to and flashed), and an element of the transcript can ask the inspector
// for the records that changed it. In the main bundle and tiny: the
// transcript must not wait for the inspector's code to mark its elements,
// and asking to inspect one opens (and so loads) the inspector.
//
// Transcript elements carry data-* attributes for it (transcript-targets.ts).

import type { LinkTarget } from "./transcript-targets.ts";

export type { LinkTarget } from "./transcript-targets.ts";

export const transcriptLinks = $state({
  /** What the selected record changed: outlined in the transcript. */
  highlight: null as LinkTarget | null,
  /** Scroll to this and flash it; `seq` says "again". */
  reveal: { target: null as LinkTarget | null, seq: 0 },
  /** Select the records that changed this; `seq` says "again". */
  inspect: { target: null as LinkTarget | null, seq: 0 },
  /** Show the lesson (and the records) of a record type a text named; `seq` says "again". */
  lesson: { term: null as string | null, seq: 0 },
});

export function revealInTranscript(target: LinkTarget): void {
  transcriptLinks.reveal = { target, seq: transcriptLinks.reveal.seq + 1 };
}

export function requestInspect(target: LinkTarget): void {
  transcriptLinks.inspect = { target, seq: transcriptLinks.inspect.seq + 1 };
}

export function requestLesson(term: string): void {
  transcriptLinks.lesson = { term, seq: transcriptLinks.lesson.seq + 1 };
}
