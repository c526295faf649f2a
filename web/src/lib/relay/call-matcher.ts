// The `call()`s of one connection waiting for pi's answer, by command id:
// each is settled once, by its response, by the relay's refusal, by its
// timeout, or by a failure for all of them when their answers can no longer
// arrive (the socket closed, pi exited or restarted, the page was reset).
// A call is never rejected: every way it ends is a response, a failure in
// words when pi did not give one.

import type { RpcResponse } from "../pi-types.ts";

/** A failure `call()` reports for a command pi never answered (not sent, refused by the relay, timed out). */
export function localFailure(command: string, error: string): RpcResponse {
  return { type: "response", command, success: false, error };
}

/** How many failed calls are remembered (see #abandoned): only the most recent few can still have a refusal in flight. */
const MAX_ABANDONED = 64;

export class CallMatcher {
  #calls = new Map<string, { command: string; settle: (response: RpcResponse) => void }>();
  /**
   * Ids of calls already answered here with a failure (pi exited, restarted,
   * the connection reset): the relay's refusal of one can still arrive after
   * pi's exit, and its caller has already been told, so it is no news.
   */
  #abandoned = new Set<string>();

  /** A call with this id is waiting for its answer. */
  has(id: string): boolean {
    return this.#calls.has(id);
  }

  /**
   * Wait for the answer to command `id` (already sent, or about to be: the
   * caller sends after this returns, so an answer cannot come first).
   * Resolves with a failure after `timeoutMs`. The id must not be waiting
   * already (check has()).
   */
  wait(id: string, command: string, timeoutMs: number): Promise<RpcResponse> {
    if (this.#calls.has(id)) throw new Error(`A call with id “${id}” is already waiting.`);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, localFailure(command, `pi did not answer within ${Math.round(timeoutMs / 1000)} s.`)), timeoutMs);
      this.#calls.set(id, {
        command,
        settle: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
      });
    });
  }

  /** Answer the call `id` (a no-op when none waits). */
  settle(id: string, response: RpcResponse): void {
    const call = this.#calls.get(id);
    if (call === undefined) return;
    this.#calls.delete(id);
    call.settle(response);
  }

  /** The relay refused command `id`: answer its call with the refusal. False when no call waits for it. */
  refuse(id: string, command: string, message: string): boolean {
    if (!this.#calls.has(id)) return false;
    this.settle(id, localFailure(command, message));
    return true;
  }

  /** Answer every waiting call with a failure (their responses can no longer arrive). */
  failAll(reason: string): void {
    for (const [id, call] of [...this.#calls]) {
      this.settle(id, localFailure(call.command, reason));
      this.#abandoned.add(id);
    }
    for (const id of this.#abandoned) {
      if (this.#abandoned.size <= MAX_ABANDONED) break;
      this.#abandoned.delete(id);
    }
  }

  /** A refusal of a call already failed here (see #abandoned): true once for each such id, and then forgotten. */
  takeAbandoned(id: string): boolean {
    return this.#abandoned.delete(id);
  }

  /** Forget the failed ones too (the page was reset: ids start again from 1). */
  forgetAbandoned(): void {
    this.#abandoned.clear();
  }
}
