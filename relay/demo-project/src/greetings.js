// One greeting per language code. `{name}` is replaced by the person's name;
// French puts a (narrow) space before the exclamation mark.
export const GREETINGS = {
  en: "Hello, {name}!",
  fr: "Bonjour, {name}\u202f!",
  de: "Hallo, {name}!",
};

export const DEFAULT_LANGUAGE = "en";
