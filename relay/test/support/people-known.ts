// Who a test browser believes is here, as a page works it out: its hello's
// list, then each presence frame in order (joined, arrived, changed, left).
import type { Person } from "@pier/protocol";
import type { Browser } from "./pier-process.ts";

export function peopleKnownTo(browser: Browser): Person[] {
  const people = new Map(browser.hello.people.map((person) => [person.clientId, person]));
  for (const frame of browser.frames) {
    if (frame.type !== "presence") continue;
    if (frame.event === "left") people.delete(frame.clientId);
    else for (const person of frame.event === "arrived" ? frame.people : [frame.person]) people.set(person.clientId, person);
  }
  return [...people.values()];
}
