// The shapes of what a page sends pi, as the UI builds them.

import type { RpcCommand } from "../pi-types.ts";

/** A command as the UI builds it: the connection adds the id. */
export type OutgoingCommand = RpcCommand extends infer C ? (C extends { id?: string } ? Omit<C, "id"> : never) : never;
