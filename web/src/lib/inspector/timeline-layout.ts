// Where each row of the swimlane sits vertically. One plot row per bar row
// of a lane (the pi lane's run, agent, turn, message, tool, tool+1 …; the
// extension UI's dialogs), each as tall as the most parallel bars it has
// shown (parallel tool calls and dialogs stack in slots), plus one row of
// instants per lane ("events"). Lanes keep the order the timeline model
// first saw them in.

import type { Lane, LaneKind } from "../wire-log/timeline.ts";

export interface PlotRow {
  key: string;
  laneId: string;
  laneKind: LaneKind;
  /** The bar row's name in its lane, or null for the lane's instants. */
  row: string | null;
  /** The row's own name for the label column ("" for the instants row: the lane's label sits there). */
  label: string;
  /** The lane's label (same on every row of a lane). */
  laneLabel: string;
  firstOfLane: boolean;
  y: number;
  height: number;
  /** Bar slots stacked in this row (1 for instants). */
  slots: number;
}

export interface PlotLayout {
  rows: PlotRow[];
  byKey: Map<string, PlotRow>;
  height: number;
}

export interface LayoutMetrics {
  /** Height of one bar slot (bar plus gap). */
  slotHeight: number;
  instantHeight: number;
  laneGap: number;
  /** Space above the first lane. */
  top: number;
}

export const DEFAULT_METRICS: LayoutMetrics = { slotHeight: 20, instantHeight: 18, laneGap: 8, top: 4 };

/** The key of a bar row; `null` row: the lane's instants. */
export function rowKey(laneId: string, row: string | null): string {
  return row === null ? `${laneId}\u0000#events` : `${laneId}\u0000${row}`;
}

/**
 * Lay the lanes out top to bottom. `slots` holds, per row key, how many
 * slots that row has needed so far (the view keeps it and only lets it grow,
 * so rows do not jump while panning).
 */
export function layoutRows(lanes: readonly Lane[], slots: ReadonlyMap<string, number>, metrics: LayoutMetrics = DEFAULT_METRICS): PlotLayout {
  const rows: PlotRow[] = [];
  const byKey = new Map<string, PlotRow>();
  let y = metrics.top;
  for (const lane of lanes) {
    const names: (string | null)[] = [null, ...lane.rows];
    names.forEach((name, i) => {
      const key = rowKey(lane.id, name);
      const slotCount = name === null ? 1 : Math.max(1, slots.get(key) ?? 1);
      const height = name === null ? metrics.instantHeight : slotCount * metrics.slotHeight;
      const row: PlotRow = {
        key,
        laneId: lane.id,
        laneKind: lane.kind,
        row: name,
        label: name ?? "",
        laneLabel: lane.label,
        firstOfLane: i === 0,
        y,
        height,
        slots: slotCount,
      };
      rows.push(row);
      byKey.set(key, row);
      y += height;
    });
    y += metrics.laneGap;
  }
  return { rows, byKey, height: Math.max(0, y - metrics.laneGap + metrics.top) };
}
