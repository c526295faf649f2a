// The WHATWG text codecs exist in Node and in browsers; this package's lib is
// plain ES2023 (no DOM, no Node types), so declare the small part it uses.
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
