// When the transcript follows new output. Following stops only when the
// person scrolls up (wheel, touch, keys, scrollbar drag, moving focus into
// an earlier card); it resumes when they come back near the bottom. Layout
// moving scrollTop on its own never stops it: content growing under a stuck
// view, the virtualizer correcting scrollTop as it measures rows, or the
// browser clamping scrollTop while a streaming message re-renders.

/** Within this many pixels of the bottom counts as "at the latest". */
export const NEAR_BOTTOM_PX = 48;
/** A scroll this soon after a person's input is theirs. */
export const INTENT_WINDOW_MS = 600;

export interface ScrollSample {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

export function distanceFromBottom(s: ScrollSample): number {
  return Math.max(0, s.scrollHeight - s.scrollTop - s.clientHeight);
}

/**
 * Whether to keep following after a scroll event.
 * @param previousTop scrollTop at the previous scroll event
 * @param userActive the person touched, wheeled, pressed a key, moved focus or holds the pointer right now
 */
export function nextFollow(following: boolean, sample: ScrollSample, previousTop: number, userActive: boolean): boolean {
  if (distanceFromBottom(sample) < NEAR_BOTTOM_PX) return true;
  if (following && userActive && sample.scrollTop < previousTop - 1) return false;
  return following;
}
