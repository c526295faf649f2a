// Client of the relay's search routes (@pier/protocol search-api.ts): the
// search answers NDJSON, read here as it arrives (fetch's ReadableStream),
// so results show while git still looks; aborting the signal closes the
// request, and the relay kills git. Preview and replace are plain JSON.

import { SEARCH_API_PATHS, type SearchPreviewResponse, type SearchQuery, type SearchRecord, type SearchReplaceRequest, type SearchReplaceResponse } from "@pier/protocol";
import { FilesApiError } from "./files-api.ts";

/** The URL of a search; flags only when set, globs comma separated. */
export function searchUrl(base: string, query: SearchQuery): string {
  const params = new URLSearchParams({ q: query.pattern });
  if (query.regex) params.set("regex", "1");
  if (query.caseSensitive) params.set("case", "1");
  if (query.wholeWord) params.set("word", "1");
  if (query.ignored) params.set("ignored", "1");
  if (query.include.length > 0) params.set("include", query.include.join(","));
  if (query.exclude.length > 0) params.set("exclude", query.exclude.join(","));
  return `${base}${SEARCH_API_PATHS.search}?${params}`;
}

/** Runs a search, handing over the records of each chunk as they come; resolves at the end of the answer. */
export async function streamSearch(base: string, query: SearchQuery, signal: AbortSignal, onRecords: (records: SearchRecord[]) => void): Promise<void> {
  const response = await fetch(searchUrl(base, query), { credentials: "same-origin", cache: "no-store", signal, headers: { Accept: "application/x-ndjson" } });
  if (!response.ok || response.body === null) throw await errorOf(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const lines = new NdjsonLines();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const records = lines.push(value);
    if (records.length > 0) onRecords(records);
  }
}

/** Splits NDJSON text arriving in pieces into records (a piece may end inside a line). */
export class NdjsonLines {
  #rest = "";

  push(text: string): SearchRecord[] {
    const parts = (this.#rest + text).split("\n");
    this.#rest = parts.pop() ?? "";
    return parts.filter((line) => line !== "").map((line) => JSON.parse(line) as SearchRecord);
  }
}

export async function previewReplace(base: string, query: SearchQuery, replacement: string): Promise<SearchPreviewResponse> {
  return post(`${base}${SEARCH_API_PATHS.preview}`, { query, replacement });
}

export async function replaceAcrossFiles(base: string, request: SearchReplaceRequest): Promise<SearchReplaceResponse> {
  return post(`${base}${SEARCH_API_PATHS.replace}`, request);
}

async function post<T>(url: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new FilesApiError(0, "network", `Cannot reach the relay: ${String(error)}`, null);
  }
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as T;
}

async function errorOf(response: Response): Promise<FilesApiError> {
  const parsed = (await response.json().catch(() => null)) as { error?: { code?: unknown; message?: unknown } } | null;
  const code = typeof parsed?.error?.code === "string" ? parsed.error.code : `http_${response.status}`;
  const message = typeof parsed?.error?.message === "string" ? parsed.error.message : `The search answered ${response.status}.`;
  return new FilesApiError(response.status, code, message, parsed);
}
