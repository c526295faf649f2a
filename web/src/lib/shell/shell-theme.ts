// The terminals' colours: one dark palette for pi's bash panels (output only:
// the cursor is hidden in the background) and the real shells (a visible cursor).
import type { ITheme } from "@xterm/xterm";

export const PANEL_THEME: ITheme = {
  background: "#15161a",
  foreground: "#e4e4e8",
  cursor: "#15161a",
  cursorAccent: "#15161a",
  selectionBackground: "#3b4a7a",
  black: "#2c2d34",
  red: "#ff7b72",
  green: "#7ee787",
  yellow: "#e3b341",
  blue: "#79c0ff",
  magenta: "#d2a8ff",
  cyan: "#76e3ea",
  white: "#c9d1d9",
  brightBlack: "#8b949e",
  brightRed: "#ffa198",
  brightGreen: "#56d364",
  brightYellow: "#f2cc60",
  brightBlue: "#a5d6ff",
  brightMagenta: "#e2c5ff",
  brightCyan: "#b3f0ff",
  brightWhite: "#ffffff",
};

export const SHELL_THEME: ITheme = { ...PANEL_THEME, cursor: "#e4e4e8" };
