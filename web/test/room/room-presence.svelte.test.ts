import type { Person, RelayFrame } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { Room } from "../../src/lib/room/room.svelte.ts";

const person = (clientId: string, name: string): Person => ({ clientId, name, role: "viewer", colour: "#000" });
const ada: Person = { ...person("c1", "Ada"), role: "driver" };
const hello = (you: Person, people: Person[]) => ({ type: "hello", you, people }) as unknown as RelayFrame;

describe("Room: who is here", () => {
  it("adds a class arriving together in the order they came, and updates a person already known in place", () => {
    const room = new Room();
    room.apply(hello(ada, [ada, person("c2", "Bo")]), 1);
    room.apply({ type: "presence", event: "arrived", people: [person("c3", "Cy"), person("c2", "Bo renamed"), person("c4", "Di")] }, 1);
    expect(room.people.map((p) => `${p.clientId} ${p.name}`)).toEqual(["c1 Ada", "c2 Bo renamed", "c3 Cy", "c4 Di"]);
  });

  it("takes a lone joiner, a rename of this browser and a leaver as before", () => {
    const room = new Room();
    room.apply(hello(ada, [ada]), 1);
    room.apply({ type: "presence", event: "joined", person: person("c2", "Bo") }, 1);
    room.apply({ type: "presence", event: "changed", person: { ...ada, name: "Ada L." } }, 1);
    expect(room.you?.name).toBe("Ada L.");
    room.apply({ type: "presence", event: "left", clientId: "c2" }, 1);
    expect(room.people.map((p) => p.name)).toEqual(["Ada L."]);
  });
});
