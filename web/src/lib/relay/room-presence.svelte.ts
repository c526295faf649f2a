// Tells the relay this browser's remembered name after every hello: the
// relay knows a connection only as "Driver" or "Viewer 3" until it hears a
// name, and a reconnect is a new connection.
import type { RelayConnection } from "./relay-connection.svelte.ts";
import { myName } from "../room/my-name.svelte.ts";

/** Call once from a component that lives as long as the page (an $effect is set up in its scope). */
export function introduceAfterHello(conn: RelayConnection): void {
  let told: string | null = null;
  $effect(() => {
    const clientId = conn.hello?.clientId ?? null;
    const name = myName.value;
    if (clientId === null || name === null || conn.phase !== "connected") return;
    const key = `${clientId}\n${name}`;
    if (key === told) return;
    told = key;
    conn.request({ type: "pier.introduce", name });
  });
}
