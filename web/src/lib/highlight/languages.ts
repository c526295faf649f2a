// File name → highlight.js language. Pure and synchronous so it can be
// tested and used to decide, before loading anything, whether a highlighter
// is worth fetching at all.

/** The languages Pier highlights. Each one is a separate lazily loaded chunk. */
export type HighlightLanguage = "bash" | "c" | "cpp" | "css" | "diff" | "go" | "ini" | "java" | "javascript" | "json" | "markdown" | "python" | "ruby" | "rust" | "sql" | "typescript" | "xml" | "yaml";

const BY_EXTENSION: Record<string, HighlightLanguage> = {
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescript",
  json: "json",
  jsonc: "json",
  json5: "json",
  jsonl: "json",
  css: "css",
  scss: "css",
  less: "css",
  html: "xml",
  htm: "xml",
  xml: "xml",
  svg: "xml",
  svelte: "xml",
  vue: "xml",
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  py: "python",
  pyi: "python",
  rs: "rust",
  go: "go",
  yml: "yaml",
  yaml: "yaml",
  toml: "ini",
  ini: "ini",
  cfg: "ini",
  conf: "ini",
  diff: "diff",
  patch: "diff",
  java: "java",
  kt: "java",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  rb: "ruby",
  sql: "sql",
};

const BY_NAME: Record<string, HighlightLanguage> = {
  dockerfile: "bash",
  makefile: "bash",
  ".bashrc": "bash",
  ".zshrc": "bash",
  ".profile": "bash",
  ".gitignore": "bash",
  ".env": "ini",
  ".editorconfig": "ini",
  ".npmrc": "ini",
  gemfile: "ruby",
  rakefile: "ruby",
};

/** The language for a path (by base name, then extension); null when Pier has none. */
export function languageForPath(path: string | undefined | null): HighlightLanguage | null {
  if (!path) return null;
  const base = path.split(/[\\/]/).pop()!.toLowerCase();
  if (base === "") return null;
  const byName = BY_NAME[base];
  if (byName) return byName;
  const dot = base.lastIndexOf(".");
  if (dot <= 0 || dot === base.length - 1) return null;
  return BY_EXTENSION[base.slice(dot + 1)] ?? null;
}

/** Fence names that are not file extensions. */
const FENCE_NAMES: Record<string, HighlightLanguage> = {
  javascript: "javascript",
  typescript: "typescript",
  shell: "bash",
  console: "bash",
  shellsession: "bash",
  python: "python",
  rust: "rust",
  golang: "go",
  html: "xml",
  "c++": "cpp",
};

/** The language of a Markdown code fence (```ts, ```shell …); null when Pier has none. */
export function languageForFence(name: string | undefined | null): HighlightLanguage | null {
  const key = (name ?? "").trim().toLowerCase();
  if (key === "") return null;
  return FENCE_NAMES[key] ?? BY_EXTENSION[key] ?? null;
}
