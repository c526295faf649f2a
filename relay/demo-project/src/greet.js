import { DEFAULT_LANGUAGE, GREETINGS } from "./greetings.js";

/**
 * Greets someone by name.
 * @param {string} name who to greet; blank names become "friend"
 * @param {string} [language] a key of GREETINGS, e.g. "fr"
 */
export function greet(name, language = DEFAULT_LANGUAGE) {
  const template = GREETINGS[language];
  if (template === undefined) {
    const known = Object.keys(GREETINGS).join(", ");
    throw new Error(`Unknown language "${language}" (known: ${known})`);
  }
  const who = name.trim() || "friend";
  return template.replace("{name}", who);
}
