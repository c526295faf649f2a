// The name this person goes by in rooms, remembered in this browser
// (localStorage) and told to the relay after every hello: the relay forgets
// a browser's name when its socket closes, so a reconnect says it again.
import { MAX_NAME_LENGTH } from "@pier/protocol";

const KEY = "pier.name";
/** "Not now" on the name banner: for this tab only, so a later visit asks again. */
const DISMISS_KEY = "pier.name.dismissed";

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null; // storage disabled (private mode, a sandbox): the name lasts this page only
  }
}

function write(storage: () => Storage, key: string, value: string): void {
  try {
    storage().setItem(key, value);
  } catch {
    /* see read() */
  }
}

/** What the relay would keep of a typed name (it cleans it again): null when nothing is left. */
export function tidyName(raw: string): string | null {
  const name = raw.replace(/\s+/g, " ").trim();
  return name === "" ? null : [...name].slice(0, MAX_NAME_LENGTH).join("");
}

class MyName {
  /** The remembered name, or null when this browser never gave one. */
  value = $state<string | null>(tidyName(read(() => localStorage, KEY) ?? ""));
  dismissed = $state(read(() => sessionStorage, DISMISS_KEY) === "1");

  /** Remember a name; false when it has no visible characters. */
  set(raw: string): boolean {
    const name = tidyName(raw);
    if (name === null) return false;
    this.value = name;
    write(() => localStorage, KEY, name);
    return true;
  }

  dismiss(): void {
    this.dismissed = true;
    write(() => sessionStorage, DISMISS_KEY, "1");
  }
}

export const myName = new MyName();
