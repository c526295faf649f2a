// The editor's colours: Pier's surfaces (the fallbacks of app.css's custom
// properties, for the scheme that is not active: monaco-setup.ts) and the
// syntax colours Pier changes in Monaco's own themes (VS Code's "vs" and
// "vs-dark"), so that code is readable by everyone: every token colour
// reaches WCAG AA's 4.5:1 on the editor's background and on the current
// line's highlight (test/editor-palette.test.ts checks all of Monaco's
// rules with these). Each is the same hue, only darker (light) or lighter
// (dark), by as little as that takes.

export interface EditorSurfaces {
  bg: string;
  sunken: string;
  hover: string;
  border: string;
  text: string;
  faint: string;
  accent: string;
  accentSoft: string;
}

export const LIGHT_SURFACES: EditorSurfaces = {
  bg: "#ffffff",
  sunken: "#f0f0f2",
  hover: "#ebebef",
  border: "#e2e2e7",
  text: "#1c1c21",
  faint: "#686873",
  accent: "#3b5bdb",
  accentSoft: "#e8edfd",
};

export const DARK_SURFACES: EditorSurfaces = {
  bg: "#1d1e23",
  sunken: "#111215",
  hover: "#26272e",
  border: "#2c2d34",
  text: "#e7e7ea",
  faint: "#9595a0",
  accent: "#7b93ff",
  accentSoft: "#252b45",
};

/** A token and its colour (#rrggbb without #, as Monaco's theme rules take it). */
export interface SyntaxColour {
  token: string;
  foreground: string;
}

/** Over "vs" (numbers #098658, annotations #808080, types #008080, attribute names #ff0000…: 3.2–4.4:1 on the line highlight). */
export const LIGHT_SYNTAX: readonly SyntaxColour[] = [
  { token: "number", foreground: "087a50" },
  { token: "annotation", foreground: "6c6c6c" },
  { token: "type", foreground: "007878" },
  { token: "tag.id.pug", foreground: "496c9e" },
  { token: "tag.class.pug", foreground: "496c9e" },
  { token: "metatag", foreground: "d80000" },
  { token: "metatag.content.html", foreground: "d90000" },
  { token: "metatag.html", foreground: "6c6c6c" },
  { token: "metatag.xml", foreground: "6c6c6c" },
  { token: "attribute.name", foreground: "d90000" },
  { token: "attribute.value.number", foreground: "087a50" },
  { token: "attribute.value.unit", foreground: "087a50" },
  { token: "string.sql", foreground: "d90000" },
  { token: "operator.sql", foreground: "5e6d7d" },
  { token: "predefined.sql", foreground: "bf00bf" },
];

/** Over "vs-dark" (comments #608b4e, regexps #b46695, predefined variables #4864aa…: 2.9–4.5:1 on the background). */
export const DARK_SYNTAX: readonly SyntaxColour[] = [
  { token: "comment", foreground: "73a35f" },
  { token: "variable.predefined", foreground: "6e86c1" },
  { token: "regexp", foreground: "b9709c" },
  { token: "annotation", foreground: "cd6a6a" },
  { token: "delimiter.html", foreground: "888888" },
  { token: "delimiter.xml", foreground: "888888" },
  { token: "tag.id.pug", foreground: "6689b9" },
  { token: "tag.class.pug", foreground: "6689b9" },
  { token: "string.sql", foreground: "ff3636" },
];

/** Bracket pair colours (Monaco colours them by depth): the light theme's green is 4.0:1 on the line highlight. */
export const LIGHT_BRACKETS = {
  "editorBracketHighlight.foreground1": "#0431fa",
  "editorBracketHighlight.foreground2": "#297c29",
  "editorBracketHighlight.foreground3": "#7b3814",
} as const;

/** The dark theme's are Monaco's own (all above 4.5:1), written out so that the test sees what applies. */
export const DARK_BRACKETS = {
  "editorBracketHighlight.foreground1": "#ffd700",
  "editorBracketHighlight.foreground2": "#da70d6",
  "editorBracketHighlight.foreground3": "#179fff",
} as const;
