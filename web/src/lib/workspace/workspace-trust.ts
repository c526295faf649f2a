// What the page knows of the workspace's trust, as a pure step per relay
// frame (the store in workspace-trust.svelte.ts holds it): hello carries the
// decision, workspace_trust changes it, and a refused pier.trust_workspace
// ends the wait for an answer. A relay too old to say anything leaves it
// unknown (null), and then no banner is shown: nothing is known to be off.
import type { RelayFrame, WorkspaceTrustInfo } from "@pier/protocol";

export type TrustView = {
  info: WorkspaceTrustInfo | null;
  /** A decision this page asked for has not been answered yet. */
  pending: boolean;
  /** The relay's sentence when it refused this page's decision. */
  refusal: string | null;
};

export const UNKNOWN_TRUST: TrustView = { info: null, pending: false, refusal: null };

/** The view after `frame`; the same object when the frame is not about trust. */
export function applyTrustFrame(view: TrustView, frame: RelayFrame): TrustView {
  switch (frame.type) {
    case "hello":
      return { info: frame.trust ?? null, pending: false, refusal: null };
    case "workspace_trust":
      return { info: frame.trust, pending: false, refusal: null };
    case "error":
      return frame.command?.type === "pier.trust_workspace" ? { ...view, pending: false, refusal: frame.message } : view;
    default:
      return view;
  }
}

/** What is off while the folder is untrusted, and why: one sentence for the banner. */
export function untrustedReason(info: WorkspaceTrustInfo): string {
  if (info.problem) return `pi's trust store cannot be read, so this folder counts as untrusted: ${info.problem}`;
  if (info.source === "pi_args") return "pi was started with --no-approve, so this folder is untrusted for this run.";
  if (info.source === "folder" || info.source === "parent") return `This folder is marked as not trusted${info.source === "parent" ? ` (by its parent ${info.path})` : ""} in pi's trust store.`;
  return "Nobody has trusted this folder yet (pi's trust store has no decision for it).";
}
