// The workspace's trust as the relay lives it: the decision that applies now
// (workspace-trust.ts reads it from pi's own store), pi's arguments that
// carry it (pi-trust-args.ts), and telling the pages when it changes —
// because a driver decided here (the `pier.trust_workspace` request, drivers
// only: viewers and revoked links never reach it) or because pi's store
// changed under us (`/trust` in a pi terminal). The store is read afresh
// whenever git is about to run (cheap next to git itself), so a decision
// taken elsewhere counts at once; a watch on pi's folder tells the pages
// without waiting for that.
//
// pi's own `--approve` / `--no-approve` after pier's `--` decide for the
// whole run, for git too: the person said so for this run.
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import type { WorkspaceTrustInfo } from "@pier/protocol";
import { piTrustOverride, withTrustFlag } from "./pi-trust-args.ts";
import { WorkspaceTrust } from "./workspace/workspace-trust.ts";

/** Several writes (a temporary file, its rename, the lock) come as one change. */
const WATCH_SETTLE_MS = 100;

export type WorkspaceTrustServiceOptions = {
  /** pi's working folder, environment and arguments (the person's `--approve` / `--no-approve` among them). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  piArgs: readonly string[];
  log: (line: string) => void;
  /** The decision changed: update pi's arguments and tell the pages. */
  onChange: (info: WorkspaceTrustInfo) => void;
};

export class WorkspaceTrustService {
  readonly #store: WorkspaceTrust;
  readonly #override: boolean | null;
  readonly #options: WorkspaceTrustServiceOptions;
  #info: WorkspaceTrustInfo;
  #watcher: FSWatcher | null = null;
  #settle: NodeJS.Timeout | null = null;
  /** watch() was asked for (and close() not): keep trying once pi's folder exists. */
  #watching = false;

  private constructor(store: WorkspaceTrust, override: boolean | null, info: WorkspaceTrustInfo, options: WorkspaceTrustServiceOptions) {
    this.#store = store;
    this.#override = override;
    this.#info = info;
    this.#options = options;
  }

  static async create(options: WorkspaceTrustServiceOptions): Promise<WorkspaceTrustService> {
    const store = await WorkspaceTrust.open(options.cwd, options.env);
    const override = piTrustOverride(options.piArgs);
    const info: WorkspaceTrustInfo = override !== null ? { trusted: override, source: "pi_args" } : await store.read();
    if (info.problem) options.log(`${info.problem} The workspace counts as untrusted.`);
    return new WorkspaceTrustService(store, override, info, options);
  }

  /** The decision as last read. */
  get info(): WorkspaceTrustInfo {
    return this.#info;
  }

  /** pi's arguments carrying the decision (unchanged when the person gave pi their own). */
  piArgs(args: readonly string[]): string[] {
    return this.#override !== null ? [...args] : withTrustFlag(args, this.#info.trusted);
  }

  /** Reads the decision afresh (pi may have changed it); the pages hear of a change. */
  async refresh(): Promise<WorkspaceTrustInfo> {
    if (this.#override !== null) return this.#info;
    this.#update(await this.#store.read());
    return this.#info;
  }

  /** A driver's decision, saved in pi's store; throws an Error with a sentence when it cannot be. */
  async decide(trusted: boolean): Promise<WorkspaceTrustInfo> {
    if (this.#override !== null) {
      const flag = this.#override ? "--approve" : "--no-approve";
      throw new Error(`pi was started with ${flag} (after pier's --), which decides for this run; start pier without it to decide here`);
    }
    const info = await this.#store.decide(trusted);
    this.#options.log(`the workspace is now ${info.trusted ? "trusted" : "not trusted"} (saved in ${this.#store.trustFile})`);
    this.#update(info);
    // pi's folder may have just been made by this write: watch it from now on.
    if (this.#watching) this.watch();
    return info;
  }

  /** Watches pi's store for decisions taken elsewhere (best effort: a folder that does not exist yet is not watched). */
  watch(): void {
    this.#watching = true;
    if (this.#override !== null || this.#watcher !== null) return;
    const names = new Set([basename(this.#store.trustFile), basename(this.#store.settingsFile)]);
    try {
      this.#watcher = watch(dirname(this.#store.trustFile), (_event, name) => {
        if (name !== null && !names.has(String(name))) return;
        if (this.#settle !== null) clearTimeout(this.#settle);
        this.#settle = setTimeout(() => {
          this.#settle = null;
          this.refresh().catch((error: unknown) => this.#options.log(`could not read pi's trust store: ${String(error)}`));
        }, WATCH_SETTLE_MS);
      });
      this.#watcher.on("error", () => {
        this.#watcher?.close();
        this.#watcher = null;
      });
    } catch {
      // No agent folder yet: git requests still read the store afresh.
    }
  }

  close(): void {
    this.#watching = false;
    this.#watcher?.close();
    this.#watcher = null;
    if (this.#settle !== null) clearTimeout(this.#settle);
    this.#settle = null;
  }

  #update(info: WorkspaceTrustInfo): void {
    const before = this.#info;
    this.#info = info;
    if (before.trusted !== info.trusted || before.source !== info.source || before.path !== info.path || before.problem !== info.problem) this.#options.onChange(info);
  }
}
