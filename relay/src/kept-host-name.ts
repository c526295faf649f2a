// pier's own host name (launch-host.ts), kept from one run to the next in
// pier's state folder, so that an installed Pier app (its address is its
// identity: host and port) still opens pier after a restart on the same
// --port. The name stays as private as before: a file only its user can read
// (0600, in a 0700 folder), never printed but in links. A file that is not a
// name pier made is replaced with a new name (and said so).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { newLaunchHostName } from "./launch-host.ts";
import { writeStateFile } from "./live/state-file.ts";

const FILE = "host-name";
const VALID = /^pier-[a-z2-7]{10}\.localhost$/;

export async function keptHostName(stateDir: string, log: (line: string) => void): Promise<string> {
  const file = join(stateDir, FILE);
  try {
    const kept = (await readFile(file, "utf8")).trim();
    if (VALID.test(kept)) return kept;
    log(`${file} does not hold a host name pier made: pier takes a new one`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log(`cannot read ${file} (${String(error)}): pier takes a new host name for this run`);
  }
  const name = newLaunchHostName();
  try {
    await writeStateFile(file, `${name}\n`);
  } catch (error) {
    log(`cannot keep pier's host name in ${file} (${String(error)}): an installed app will not find this pier after a restart`);
  }
  return name;
}
