/**
 * The one list of runtime symbols generated code may import, and the
 * printer settings every emitter shares (header, runtime module, import
 * extension). Emitters print imports through {@link runtimeImport} and
 * {@link localImport}, so every generated file is right as printed — no
 * patching of the text afterwards — and a symbol missing from `acp-router/runtime`
 * fails one test (`test/codegen/symbols.test.ts`) instead of a user's build.
 */
import { HEADER } from "./names.ts";

/** Every symbol `acp-router/runtime` exports for generated code: `value` or `type`. */
export const RUNTIME_SYMBOLS = {
  addError: "value",
  addErrors: "value",
  addPlaceholder: "value",
  errorKinds: "value",
  isObject: "value",
  bindProtocol: "value",
  bindAgent: "value",
  bindClient: "value",
  createAgentConnection: "value",
  createClientConnection: "value",
  defineProtocol: "value",
  extendProtocol: "value",
  notDecodedHere: "value",
  notImplemented: "value",
  ucs2length: "value",
  AgentConnectionOf: "type",
  BoundProtocol: "type",
  ClientConnectionOf: "type",
  HandlerContext: "type",
  LeniencyGraph: "type",
  PeerCaller: "type",
  ProtocolTypes: "type",
  RequestOptions: "type",
  RequiredMethods: "type",
  Row: "type",
  Validator: "type",
  WithContext: "type",
} as const;

/** A symbol of {@link RUNTIME_SYMBOLS}. */
export type RuntimeSymbol = keyof typeof RUNTIME_SYMBOLS;

/** How the files of one generated folder are printed. */
export interface Printer {
  /** The fixed first lines of every file (no timestamps, no versions). */
  readonly header: string;
  /** Module specifier of the runtime: `acp-router/runtime` for users; the repository's folders use a relative path. */
  readonly runtime: string;
  /** Extension of imports between the generated files: `.js` (plain tsc, NodeNext) or `.ts` (this repository). */
  readonly ext: ".js" | ".ts";
}

/** The public entry made for generated code. */
export const RUNTIME = "acp-router/runtime";

/** A user's folder: the default header, the public runtime entry, `.js` imports. */
export const DEFAULT_PRINTER: Printer = { header: HEADER, runtime: RUNTIME, ext: ".js" };

/** `import { a, type B } from "<runtime>";` (or `import type { … }` when all are types), names sorted. */
export function runtimeImport(p: Printer, names: readonly RuntimeSymbol[]): string {
  const sorted = [...new Set(names)].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
  const allTypes = sorted.every((n) => RUNTIME_SYMBOLS[n] === "type");
  const list = sorted.map((n) => (allTypes || RUNTIME_SYMBOLS[n] === "value" ? n : `type ${n}`)).join(", ");
  return `import ${allTypes ? "type " : ""}{ ${list} } from "${p.runtime}";`;
}

/** An import of sibling generated file `file` (no extension): `{ a, b }`, `* as V`, type-only when `typeOnly`. */
export function localImport(p: Printer, file: string, what: readonly string[] | string, typeOnly: boolean): string {
  const clause = typeof what === "string" ? what : `{ ${what.join(", ")} }`;
  return `import ${typeOnly ? "type " : ""}${clause} from "./${file}${p.ext}";`;
}
