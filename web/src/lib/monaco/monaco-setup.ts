// Loaded only through load-monaco.ts (dynamic import): Monaco itself, its web
// workers bundled the Vite way, and Pier's themes, which follow the app's
// light/dark tokens from app.css and switch with prefers-color-scheme.

import * as monaco from "monaco-editor";
import EditorWorker from "monaco-editor/editor/editor.worker.js?worker";
import TsWorker from "monaco-editor/language/typescript/ts.worker.js?worker";
import JsonWorker from "monaco-editor/language/json/json.worker.js?worker";
import CssWorker from "monaco-editor/language/css/css.worker.js?worker";
import HtmlWorker from "monaco-editor/language/html/html.worker.js?worker";
import { PIER_THEME_DARK, PIER_THEME_LIGHT } from "./load-monaco.ts";

declare global {
  interface Window {
    MonacoEnvironment?: monaco.Environment;
  }
}

let ready = false;

export function setupMonaco(): typeof monaco {
  if (ready) return monaco;
  ready = true;

  self.MonacoEnvironment = {
    getWorker(_workerId: string, label: string): Worker {
      switch (label) {
        case "json":
          return new JsonWorker();
        case "css":
        case "scss":
        case "less":
          return new CssWorker();
        case "html":
        case "handlebars":
        case "razor":
          return new HtmlWorker();
        case "typescript":
        case "javascript":
          return new TsWorker();
        default:
          return new EditorWorker();
      }
    },
  };

  // The workspace is seen one file at a time: imports cannot be resolved, so
  // semantic errors would be noise. Syntax errors stay.
  for (const defaults of [monaco.typescript.typescriptDefaults, monaco.typescript.javascriptDefaults]) {
    defaults.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: false });
  }
  monaco.typescript.typescriptDefaults.setCompilerOptions({
    target: monaco.typescript.ScriptTarget.ES2020,
    module: monaco.typescript.ModuleKind.ESNext,
    moduleResolution: monaco.typescript.ModuleResolutionKind.NodeJs,
    allowJs: true,
    jsx: monaco.typescript.JsxEmit.Preserve,
    allowNonTsExtensions: true,
  });

  defineThemes();
  const scheme = matchMedia("(prefers-color-scheme: dark)");
  const apply = () => {
    defineThemes();
    monaco.editor.setTheme(scheme.matches ? PIER_THEME_DARK : PIER_THEME_LIGHT);
  };
  apply();
  scheme.addEventListener("change", apply);
  return monaco;
}

/** Current value of an app.css custom property, as #rrggbb when possible. */
function token(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  // Monaco accepts #rrggbb only (alpha is appended below): expand #rgb, drop alpha.
  if (/^#[0-9a-f]{3}$/i.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join("")}`;
  if (/^#[0-9a-f]{6}$/i.test(value)) return value;
  if (/^#[0-9a-f]{8}$/i.test(value)) return value.slice(0, 7);
  return fallback;
}

function defineThemes(): void {
  // The custom properties resolve for the active scheme only, so each theme
  // is defined from them while that scheme is active and from fixed values otherwise.
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const light = {
    bg: "#ffffff",
    sunken: "#f0f0f2",
    hover: "#ebebef",
    border: "#e2e2e7",
    text: "#1c1c21",
    faint: "#686873",
    accent: "#3b5bdb",
    accentSoft: "#e8edfd",
  };
  const darkColors = {
    bg: "#1d1e23",
    sunken: "#111215",
    hover: "#26272e",
    border: "#2c2d34",
    text: "#e7e7ea",
    faint: "#9595a0",
    accent: "#7b93ff",
    accentSoft: "#252b45",
  };
  const live = {
    bg: token("--bg-elev", dark ? darkColors.bg : light.bg),
    sunken: token("--bg-sunken", dark ? darkColors.sunken : light.sunken),
    hover: token("--bg-hover", dark ? darkColors.hover : light.hover),
    border: token("--border", dark ? darkColors.border : light.border),
    text: token("--text", dark ? darkColors.text : light.text),
    faint: token("--text-faint", dark ? darkColors.faint : light.faint),
    accent: token("--accent", dark ? darkColors.accent : light.accent),
    accentSoft: token("--accent-soft", dark ? darkColors.accentSoft : light.accentSoft),
  };
  const colors = (c: typeof light): monaco.editor.IColors => ({
    "editor.background": c.bg,
    "editor.foreground": c.text,
    "editorLineNumber.foreground": c.faint,
    "editorLineNumber.activeForeground": c.text,
    // The number of the empty line after a final newline: readable too.
    "editorLineNumber.dimmedForeground": c.faint,
    "editor.lineHighlightBackground": c.sunken,
    "editor.lineHighlightBorder": c.sunken,
    "editorCursor.foreground": c.accent,
    "editorGutter.background": c.bg,
    "editorWidget.background": c.bg,
    "editorWidget.border": c.border,
    "editorIndentGuide.background1": c.border,
    "focusBorder": c.accent,
    "scrollbarSlider.background": `${c.faint}33`,
    "scrollbarSlider.hoverBackground": `${c.faint}55`,
    "scrollbarSlider.activeBackground": `${c.faint}77`,
    "minimap.background": c.bg,
    "diffEditor.border": c.border,
  });
  monaco.editor.defineTheme(PIER_THEME_LIGHT, { base: "vs", inherit: true, rules: [], colors: colors(dark ? light : live) });
  // vs-dark's comments (#608b4e) are under 4.5:1 on Pier's dark background.
  const darkRules: monaco.editor.ITokenThemeRule[] = [{ token: "comment", foreground: "73a35f" }];
  monaco.editor.defineTheme(PIER_THEME_DARK, { base: "vs-dark", inherit: true, rules: darkRules, colors: colors(dark ? live : darkColors) });
}
