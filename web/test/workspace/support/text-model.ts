// A stand-in for a Monaco text model with the parts the documents store uses:
// text, positions, undoable edits and Monaco's "alternative version id",
// which comes back to an earlier value when an undo returns to that text
// (that is how the store tells a buffer is clean again). Monaco itself needs
// a real page; the editor's e2e specs run it.

import type { TextModel } from "../../../src/lib/workspace/documents-store.svelte.ts";

type Range = { startLineNumber: number; startColumn: number; endLineNumber: number; endColumn: number };

export class FakeTextModel {
  #text: string;
  #disposed = false;
  #nextId = 1;
  /** Alternative version ids of the undo stack; the last is the current one. */
  #history: { id: number; text: string }[];
  #listeners = new Set<() => void>();

  constructor(text: string) {
    this.#text = text;
    this.#history = [{ id: this.#nextId, text }];
  }

  getValue(): string {
    return this.#text;
  }

  /** A typed edit (undoable): replaces the whole text. */
  type(text: string): void {
    this.#set(text, true);
  }

  setValue(text: string): void {
    this.#set(text, true);
  }

  undo(): void {
    if (this.#history.length < 2) return;
    this.#history.pop();
    this.#text = this.#history.at(-1)!.text;
    this.#emit();
  }

  getAlternativeVersionId(): number {
    return this.#history.at(-1)!.id;
  }

  isDisposed(): boolean {
    return this.#disposed;
  }

  dispose(): void {
    this.#disposed = true;
  }

  getPositionAt(offset: number): { lineNumber: number; column: number } {
    const before = this.#text.slice(0, offset).split("\n");
    return { lineNumber: before.length, column: before.at(-1)!.length + 1 };
  }

  #offsetAt(line: number, column: number): number {
    const lines = this.#text.split("\n");
    let offset = 0;
    for (let i = 0; i < line - 1; i++) offset += lines[i]!.length + 1;
    return offset + column - 1;
  }

  pushEditOperations(_selections: unknown, edits: { range: Range; text: string }[]): null {
    let text = this.#text;
    // Applied from the end so earlier offsets stay right.
    const sorted = [...edits].sort((a, b) => b.range.startLineNumber - a.range.startLineNumber || b.range.startColumn - a.range.startColumn);
    for (const edit of sorted) {
      const start = this.#offsetAt(edit.range.startLineNumber, edit.range.startColumn);
      const end = this.#offsetAt(edit.range.endLineNumber, edit.range.endColumn);
      text = text.slice(0, start) + edit.text + text.slice(end);
    }
    this.#set(text, true);
    return null;
  }

  onDidChangeContent(listener: () => void): { dispose(): void } {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  #set(text: string, undoable: boolean): void {
    this.#text = text;
    if (undoable) this.#history.push({ id: ++this.#nextId, text });
    this.#emit();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The factory the documents store calls for a model; keeps the models made, by path. */
export function modelFactory(): { make: (path: string, text: string) => TextModel; models: Map<string, FakeTextModel> } {
  const models = new Map<string, FakeTextModel>();
  return {
    models,
    make: (path, text) => {
      const model = new FakeTextModel(text);
      models.set(path, model);
      return model as unknown as TextModel;
    },
  };
}
