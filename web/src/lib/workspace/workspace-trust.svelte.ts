// The workspace's trust for the banner: fed every relay frame by the
// connection (workspace-trust.ts decides what each one changes).
import type { RelayFrame } from "@pier/protocol";
import { applyTrustFrame, UNKNOWN_TRUST, type TrustView } from "./workspace-trust.ts";

export class WorkspaceTrustStore {
  view = $state.raw<TrustView>(UNKNOWN_TRUST);

  get untrusted(): boolean {
    return this.view.info !== null && !this.view.info.trusted;
  }

  apply(frame: RelayFrame): void {
    const next = applyTrustFrame(this.view, frame);
    if (next !== this.view) this.view = next;
  }

  /** Waiting for the relay's answer to this page's request. */
  asked(): void {
    this.view = { ...this.view, pending: true, refusal: null };
  }
}
