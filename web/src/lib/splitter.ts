// The arithmetic of a resize splitter (components/common/Splitter.svelte),
// kept apart from the DOM so it can be tested: which size an arrow key or a
// drag asks for, within the bounds the caller gives.

/** The arrow key that makes the resized pane bigger (the pane lies on the other side of the splitter). */
export type GrowKey = "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown";

const OPPOSITE: Record<GrowKey, GrowKey> = {
  ArrowLeft: "ArrowRight",
  ArrowRight: "ArrowLeft",
  ArrowUp: "ArrowDown",
  ArrowDown: "ArrowUp",
};

export type KeyStep = {
  key: string;
  shiftKey: boolean;
  value: number;
  growKey: GrowKey;
  step: number;
  /** With Shift held; the plain step when absent. */
  bigStep?: number;
  /** The largest size growing may reach (the caller's store keeps its own minimum). */
  max?: number;
};

/** The size a key press asks for, or null when the key is not one of the splitter's. */
export function sizeAfterKey({ key, shiftKey, value, growKey, step, bigStep, max = Infinity }: KeyStep): number | null {
  const by = shiftKey && bigStep !== undefined ? bigStep : step;
  if (key === growKey) return Math.min(max, value + by);
  if (key === OPPOSITE[growKey]) return value - by;
  return null;
}

/**
 * The size while dragging: the start size plus how far the pointer moved
 * towards the resized pane's far side, capped at max (the minimum is the
 * store's, as with keys).
 */
export function sizeAfterDrag(start: { value: number; at: number }, at: number, growKey: GrowKey, max = Infinity): number {
  const moved = growKey === "ArrowLeft" || growKey === "ArrowUp" ? start.at - at : at - start.at;
  return Math.min(max, start.value + moved);
}
