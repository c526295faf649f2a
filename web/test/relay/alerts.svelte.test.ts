import { flushSync } from "svelte";
import { describe, expect, it } from "vitest";
import { AlertStore } from "../../src/lib/relay/alerts.svelte.ts";

describe("alert store", () => {
  it("keeps the newest six, oldest first, each with its own id and time", () => {
    let clock = 100;
    const alerts = new AlertStore(() => clock++);
    for (let i = 1; i <= 8; i++) alerts.push("error", `t${i}`, `m${i}`);
    expect(alerts.items.map((a) => a.title)).toEqual(["t3", "t4", "t5", "t6", "t7", "t8"]);
    expect(new Set(alerts.items.map((a) => a.id)).size).toBe(6);
    expect(alerts.items[0]).toMatchObject({ level: "error", message: "m3", at: 102 });
  });

  it("dismisses one by id, and says whether the same thing is showing", () => {
    const alerts = new AlertStore();
    alerts.push("warning", "Not connected", "down");
    alerts.push("info", "Relay", "hi");
    expect(alerts.showing("Not connected", "down")).toBe(true);
    expect(alerts.showing("Not connected", "up")).toBe(false);
    alerts.dismiss(alerts.items[0]!.id);
    alerts.dismiss(12345);
    expect(alerts.items.map((a) => a.title)).toEqual(["Relay"]);
    expect(alerts.showing("Not connected", "down")).toBe(false);
  });

  it("is reactive: a view following the items sees pushes, dismissals and a clear", () => {
    const alerts = new AlertStore();
    const seen: number[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        seen.push(alerts.items.length);
      });
    });
    flushSync();
    alerts.push("info", "a", "b");
    flushSync();
    alerts.push("info", "c", "d");
    flushSync();
    alerts.dismiss(alerts.items[0]!.id);
    flushSync();
    alerts.clear();
    flushSync();
    stop();
    expect(seen).toEqual([0, 1, 2, 1, 0]);
  });
});
