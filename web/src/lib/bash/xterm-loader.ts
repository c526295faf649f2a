// xterm.js and its stylesheet, loaded on demand: only pages that open a
// terminal panel pay for them (Vite splits this module and its CSS into their
// own chunk, the way the Monaco editor is split).

import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import "@xterm/xterm/css/xterm.css";

export { FitAddon, Terminal };
