// Who is connected: one Person per browser connection, with the role its
// link granted, the name its person gave (untrusted text: cleaned here, and
// always rendered as text by the pages) and a colour to tell people apart.
import { MAX_NAME_LENGTH, type Person } from "@pier/protocol";
import type { Grant } from "./access-links.ts";

/** Distinct on light and dark backgrounds, handed out in turn; each is the background of white initials and names, so all reach 4.5:1 against white. */
const COLOURS = ["#c2410c", "#1971c2", "#237a35", "#ae3ec9", "#b35c00", "#0b7285", "#c2255c", "#4d7c0f", "#7048e8", "#c92a2a"];

type Member = Person & { grant: Grant };

/** How a browser looks to others until it names itself: kept per grant, so a reconnect looks the same. */
type Seat = { colour: string; defaultName: string };
/** Seats remembered for browsers that left (a class with a viewer link); the oldest are forgotten first. */
const MAX_SEATS = 1000;

export class People {
  readonly #members = new Map<string, Member>();
  /** grant id → its seat. A browser that reconnects (a network blip, a reload) or opens another tab keeps its colour and default name. */
  readonly #seats = new Map<string, Seat>();
  #joined = 0;
  #drivers = 0;
  #viewers = 0;

  /**
   * A new connection; its name until it says otherwise is its role and seat
   * ("Driver", "Driver 2", "Viewer 3"): two drivers who skipped the name
   * banner must still be told apart ("Follow Driver 2", "Driver 2 answered").
   */
  join(clientId: string, grant: Grant): Person {
    const { colour, defaultName } = this.#seatOf(grant);
    const member: Member = { clientId, name: defaultName, role: grant.role, colour, grant };
    this.#members.set(clientId, member);
    return personOf(member);
  }

  #seatOf(grant: Grant): Seat {
    const known = this.#seats.get(grant.id);
    if (known !== undefined) return known;
    const seat = {
      colour: COLOURS[this.#joined++ % COLOURS.length]!,
      defaultName: grant.role === "driver" ? driverName(++this.#drivers) : `Viewer ${++this.#viewers}`,
    };
    this.#seats.set(grant.id, seat);
    if (this.#seats.size > MAX_SEATS) this.#seats.delete(this.#seats.keys().next().value!);
    return seat;
  }

  leave(clientId: string): void {
    this.#members.delete(clientId);
  }

  /** Sets a name after cleaning it; null when nothing usable is left (the old name stays). */
  rename(clientId: string, raw: string): Person | null {
    const member = this.#members.get(clientId);
    const name = cleanName(raw);
    if (member === undefined || name === null) return null;
    member.name = name;
    return personOf(member);
  }

  get(clientId: string): Person | undefined {
    const member = this.#members.get(clientId);
    return member === undefined ? undefined : personOf(member);
  }

  grantOf(clientId: string): Grant | undefined {
    return this.#members.get(clientId)?.grant;
  }

  /** The people whose connections came from `linkId`. */
  fromLink(linkId: string): Person[] {
    return [...this.#members.values()].filter((member) => member.grant.linkId === linkId).map(personOf);
  }

  /** A person connected with this grant (for changes made over HTTP with its cookie), if any. */
  byGrant(grantId: string): Person | null {
    for (const member of this.#members.values()) if (member.grant.id === grantId) return personOf(member);
    return null;
  }

  list(): Person[] {
    return [...this.#members.values()].map(personOf);
  }
}

/** The first driver (usually the only one) is plain "Driver"; later browsers with a driver link are numbered from 2. */
function driverName(seat: number): string {
  return seat === 1 ? "Driver" : `Driver ${seat}`;
}

function personOf(member: Member): Person {
  return { clientId: member.clientId, name: member.name, role: member.role, colour: member.colour };
}

/**
 * A name as people will read it: control and formatting characters (bidi
 * overrides, zero-width joiners used to spoof) removed, whitespace collapsed,
 * at most MAX_NAME_LENGTH characters. Markup is left as typed: pages show it
 * as text, where it is inert.
 */
export function cleanName(raw: string): string | null {
  const name = raw
    .replace(/\s+/g, " ")
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu, "")
    .replace(/ {2,}/g, " ")
    .trim();
  if (name === "") return null;
  return [...name].slice(0, MAX_NAME_LENGTH).join("");
}
