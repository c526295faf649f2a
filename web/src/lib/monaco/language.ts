// Picks a Monaco language id from a file name using the languages Monaco has
// registered (their `filenames` and `extensions`), so every basic language
// Monaco ships is covered without a table of our own.

export interface LanguageInfo {
  id: string;
  extensions?: string[];
  filenames?: string[];
}

export function languageIdFor(path: string, languages: readonly LanguageInfo[]): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const lower = name.toLowerCase();
  for (const language of languages) {
    if (language.filenames?.some((f) => f.toLowerCase() === lower)) return language.id;
  }
  // Longest matching extension wins (".d.ts" before ".ts", ".test.js" before ".js").
  let best: { id: string; length: number } | null = null;
  for (const language of languages) {
    for (const extension of language.extensions ?? []) {
      const ext = extension.toLowerCase();
      if (lower.endsWith(ext) && lower.length > ext.length - (ext.startsWith(".") ? 0 : 1) && (!best || ext.length > best.length)) {
        best = { id: language.id, length: ext.length };
      }
    }
  }
  if (best) return best.id;
  if (/^(dockerfile|containerfile)(\..*)?$/i.test(name)) return "dockerfile";
  if (/^\.?(bash|zsh)rc$|^\.profile$/i.test(name)) return "shell";
  return "plaintext";
}
