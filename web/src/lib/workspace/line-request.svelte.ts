// A line to put the cursor on once a file is on screen in the editor (a
// `path:line` printed in a shell, clicked). CodeEditor takes it when the file
// is shown, puts the cursor there and centres it, then clears it.
export type LineTarget = { path: string; line: number; column: number };

export const lineRequest = $state<{ target: LineTarget | null }>({ target: null });

export function requestLine(target: LineTarget): void {
  lineRequest.target = target;
}
