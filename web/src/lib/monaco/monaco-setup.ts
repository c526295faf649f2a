// Loaded only through load-monaco.ts (dynamic import): Monaco itself, its web
// workers bundled the Vite way, and Pier's themes, which follow the app's
// light/dark tokens from app.css and switch with the page's scheme (lib/settings/color-scheme.ts).

import * as monaco from "monaco-editor";
import EditorWorker from "monaco-editor/editor/editor.worker.js?worker";
import TsWorker from "monaco-editor/language/typescript/ts.worker.js?worker";
import JsonWorker from "monaco-editor/language/json/json.worker.js?worker";
import CssWorker from "monaco-editor/language/css/css.worker.js?worker";
import HtmlWorker from "monaco-editor/language/html/html.worker.js?worker";
import { DARK_BRACKETS, DARK_SURFACES, DARK_SYNTAX, LIGHT_BRACKETS, LIGHT_SURFACES, LIGHT_SYNTAX, type EditorSurfaces } from "./editor-palette.ts";
import { PIER_THEME_DARK, PIER_THEME_LIGHT } from "./load-monaco.ts";
import { isDarkScheme, onSchemeChange } from "../settings/color-scheme.ts";

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
  const apply = () => {
    defineThemes();
    monaco.editor.setTheme(isDarkScheme() ? PIER_THEME_DARK : PIER_THEME_LIGHT);
  };
  apply();
  onSchemeChange(apply);
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
  const dark = isDarkScheme();
  const fallback = dark ? DARK_SURFACES : LIGHT_SURFACES;
  const live: EditorSurfaces = {
    bg: token("--bg-elev", fallback.bg),
    sunken: token("--bg-sunken", fallback.sunken),
    hover: token("--bg-hover", fallback.hover),
    border: token("--border", fallback.border),
    text: token("--text", fallback.text),
    faint: token("--text-faint", fallback.faint),
    accent: token("--accent", fallback.accent),
    accentSoft: token("--accent-soft", fallback.accentSoft),
  };
  const colors = (c: EditorSurfaces): monaco.editor.IColors => ({
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
    focusBorder: c.accent,
    "scrollbarSlider.background": `${c.faint}33`,
    "scrollbarSlider.hoverBackground": `${c.faint}55`,
    "scrollbarSlider.activeBackground": `${c.faint}77`,
    "minimap.background": c.bg,
    "diffEditor.border": c.border,
  });
  // Syntax colours that reach 4.5:1 (editor-palette.ts).
  monaco.editor.defineTheme(PIER_THEME_LIGHT, {
    base: "vs",
    inherit: true,
    rules: [...LIGHT_SYNTAX],
    colors: { ...colors(dark ? LIGHT_SURFACES : live), ...LIGHT_BRACKETS },
  });
  monaco.editor.defineTheme(PIER_THEME_DARK, {
    base: "vs-dark",
    inherit: true,
    rules: [...DARK_SYNTAX],
    colors: { ...colors(dark ? live : DARK_SURFACES), ...DARK_BRACKETS },
  });
}
