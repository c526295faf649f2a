// The sentences the details pane says about a record's pair and run: who
// asked, what came back and how fast, and where the run it belongs to began
// and ended. Pure, from the pairing model.

import type { CommandPair, RunSpan } from "./pairing.ts";
import { formatLatency, senderName } from "./record-badges.ts";

function who(pair: CommandPair): string {
  if (pair.sender === null) return "";
  if (pair.sender.clientId === "self") return " from this browser";
  const name = senderName(pair.sender);
  return pair.senderInferred ? ` from ${name} (read from its id)` : ` from ${name}`;
}

/** One or two sentences about a command and its response (or a dialog and its answer). */
export function pairStory(pair: CommandPair, now: number): string {
  if (pair.kind === "dialog") {
    if (pair.outcome === "pending") return `An extension dialog (${pair.commandType}) waiting for an answer${pair.commandAt !== null ? ` for ${formatLatency(now - pair.commandAt)}` : ""}.`;
    const late = pair.late === true ? " It came after the dialog's timeout: pi had already used the default." : "";
    return `A dialog (${pair.commandType}) answered${who(pair)}${pair.latencyMs !== null ? ` after ${formatLatency(pair.latencyMs)}` : ""}.${late}`;
  }
  const command = `${pair.commandType}${pair.id !== null ? ` (id ${pair.id})` : ""}`;
  const sent = pair.commandSeq === null ? `${command}, sent before this page was listening${who(pair)}` : `${command}${who(pair)}`;
  switch (pair.outcome) {
    case "pending":
      return `${sent}: waiting for pi's answer${pair.commandAt !== null ? ` for ${formatLatency(now - pair.commandAt)}` : ""}.`;
    case "ok":
      return `${sent}: pi answered success${pair.latencyMs !== null ? ` in ${formatLatency(pair.latencyMs)}` : ""}.${dispositionWords(pair)}`;
    case "failed":
      return `${sent}: pi answered failure${pair.latencyMs !== null ? ` in ${formatLatency(pair.latencyMs)}` : ""}: ${pair.error ?? "no reason given"}.`;
    case "refused":
      return `${sent}: the relay refused it, so pi never saw it (${pair.error ?? "no reason given"}).`;
    case "lost":
      return `${sent}: no answer will come (${pair.error ?? "lost"}).`;
  }
}

function dispositionWords(pair: CommandPair): string {
  switch (pair.disposition) {
    case "started":
      return " pi says a run started.";
    case "queued":
      return " pi says it was queued behind the run in progress.";
    case "handled":
      return " pi says an extension handled it: no run.";
    default:
      return pair.commandType === "prompt" ? " (success means accepted; the work ends at agent_settled.)" : "";
  }
}

/** What a run did, start to end. */
export function runStory(run: RunSpan, starter: CommandPair | undefined): string {
  const begun = starter !== undefined ? `Started when pi accepted ${starter.commandType}${who(starter)}` : "Started at an agent_start no command of this page's explains";
  const extra: string[] = [];
  if (run.agentStarts > 1) extra.push(`${run.agentStarts} agent runs`);
  if (run.retries > 0) extra.push(`${run.retries} retr${run.retries === 1 ? "y" : "ies"}`);
  if (run.compactions > 0) extra.push(`${run.compactions} compaction${run.compactions === 1 ? "" : "s"}`);
  if (run.joined.length > 0) extra.push(`${run.joined.length} queued message${run.joined.length === 1 ? "" : "s"} joined`);
  const inside = extra.length > 0 ? ` (${extra.join(", ")})` : "";
  let end: string;
  switch (run.endedBy) {
    case null:
      end = "still going: it ends at agent_settled";
      break;
    case "settled":
      end = `over at agent_settled after ${formatLatency((run.endAt ?? run.startAt) - run.startAt)}${run.aborted === true ? ", aborted" : ""}`;
      break;
    case "pi-exited":
      end = "cut short: pi exited or was restarted";
      break;
    case "reconnected":
      end = "this page reconnected before it ended (the replay shows it again)";
      break;
  }
  return `${begun}${inside}; ${end}.${run.replayed ? " Seen in the relay's replay: its times are replay times." : ""}`;
}
