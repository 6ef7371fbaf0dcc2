// DESIGN §11: the connection core in one piece. Read from the code's text, like the module-graph
// test: no import cycle in src/ (src/mcp and src/proxy included), tools/ or codegen/, nor across the repository's folders; no module-level mutable state in src/; the negotiated
// state (initialized, authenticated, version, capabilities, sessions, turns, objects) written in
// one module only, src/connection/state.ts, whose fields are private; the inbound pipeline's state private to
// the pipeline's modules (its steps, and Inbound in src/connection/pipeline.ts, which shows methods only), and
// nothing patched into it from outside.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { cyclesOf, filesIn, importsIn, importsOf, root } from "../support/imports.ts";

const read = (file: string) => readFileSync(join(root, file), "utf8");

describe("import cycles", () => {
  it("finds a cycle where there is one (the check can fail)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cyclesOf(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(importsIn("src/connection/x.ts", 'import type { Y } from "./y.ts";\nexport { z } from "../z.ts";')).toEqual(["src/connection/y.ts", "src/z.ts"]);
  });

  it.each(["src", "src/mcp", "src/proxy", "tools", "codegen"])("has none in %s/ (type-only imports included)", (folder) => {
    const files = filesIn(folder);
    expect(files.length).toBeGreaterThan(5);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    expect(cyclesOf(graph)).toEqual([]);
  });

  it("has none across the repository's TypeScript (tables, codegen, src, tools, bin, bench, examples, test)", () => {
    const files = ["tables", "codegen", "src", "tools", "bin", "bench", "examples", "test"].flatMap(filesIn).concat("method-table.ts");
    expect(files.length).toBeGreaterThan(400);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    expect(cyclesOf(graph)).toEqual([]);
  });
});

/**
 * Module-level state that lives as long as the process: the only kind allowed, each with its
 * reason. Everything a connection needs is held by the connection.
 */
const PROCESS_WIDE: Readonly<Record<string, string>> = {
  // Agent process groups this process started: its exit and signal hooks must reach every one of
  // them, whichever connection started it (the "no orphan" guarantee); one set per process by nature.
  "src/transport/process.ts live": "owner exit guard",
  // The owner's watcher process and the groups it holds, which end with the owner whatever kills it
  // (SIGKILL included): one watcher per owner process by nature.
  "src/transport/process-watcher.ts watched": "the groups the owner's watcher holds",
  "src/transport/process-watcher.ts unavailable": "no /bin/sh on this system (once known)",
};

/** Top-level declarations whose value can change: `let`/`var`, or a `const` holding a mutable Map, Set, WeakMap, WeakSet, array or object. */
function mutableTopLevel(file: string, text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^(?:export\s+)?(let|var|const)\s+([A-Za-z_$][\w$]*)\s*(?::\s*([^=]+))?=\s*(.*)$/.exec(line);
    if (m === null) continue;
    const [, keyword, name, type = "", value = ""] = m;
    const readonlyType = /^\s*(Readonly|ReadonlyMap|ReadonlySet|readonly\s)/.test(type);
    const mutableValue = /^new\s+(Weak)?(Map|Set)\b/.test(value) || /^\[\s*\]/.test(value) || /^\{\s*\};?$/.test(value);
    if (keyword !== "const" || (mutableValue && !readonlyType)) out.push(`${file} ${name}`);
  }
  return out;
}

describe("module-level mutable state", () => {
  it("is found where there is some (the check can fail)", () => {
    expect(mutableTopLevel("x.ts", "const states = new WeakMap<object, number>();\nlet n = 0;\nconst ok: ReadonlySet<number> = new Set([1]);\nconst fine = Symbol();")).toEqual(["x.ts states", "x.ts n"]);
  });

  it("is none in src/ but the documented process-wide registries", () => {
    const found = filesIn("src").flatMap((f) => mutableTopLevel(f, read(f)));
    expect(found.filter((d) => !(d in PROCESS_WIDE))).toEqual([]);
    // Every documented exception still exists (the list does not outlive the code).
    for (const d of Object.keys(PROCESS_WIDE)) expect(found).toContain(d);
  });
});

/** Writes to the negotiated state by name: assignments to its facts, and changes to its collections. */
const STATE_WRITE =
  /\.(initialized|authenticated|protocolVersion|agentCapabilities|clientCapabilities|offeredClientCapabilities|offeredClientCaps|otherRequestSeen|agentCaps|clientCaps|isInitialized|isAuthenticated|version)\s*=(?!=)|\b(knownSessions|sessions|turns|objects)\.(add|set|delete|clear)\(/;
const STATE_MODULE = "src/connection/state.ts";

describe("the negotiated state", () => {
  it("detects a write (the check can fail)", () => {
    expect(STATE_WRITE.test("this.core.initialized = true;")).toBe(true);
    expect(STATE_WRITE.test("core.knownSessions.add(id);")).toBe(true);
    expect(STATE_WRITE.test("if (state.initialized === true) return;")).toBe(false);
  });

  it("is written by one module only, state.ts", () => {
    const files = [...filesIn("src/connection"), ...filesIn("src/extensions"), ...filesIn("src/versions"), "src/decode.ts", "src/bind.ts", "src/protocol.ts", "src/row.ts"];
    const writers = files.filter(
      (f) =>
        f !== STATE_MODULE &&
        read(f)
          .split("\n")
          .some((line) => STATE_WRITE.test(line)),
    );
    expect(writers).toEqual([]);
    expect(
      read(STATE_MODULE)
        .split("\n")
        .some((line) => STATE_WRITE.test(line)),
    ).toBe(true);
  });

  it("keeps every field of ConnectionState private: others read it through StateView", () => {
    const text = read(STATE_MODULE);
    const body = text.slice(text.indexOf("export class ConnectionState"));
    const fields = [...body.matchAll(/^ {2}((?:private\s+|readonly\s+)*)([A-Za-z]\w*)\s*(?:\??:[^(;=]*)?\s*(?:=[^;]*)?;$/gm)];
    expect(fields.length).toBeGreaterThan(8);
    expect(fields.filter((f) => !(f[1] as string).includes("private")).map((f) => f[2])).toEqual([]);
  });

  it("is held by the connection, not beside it: no module of src/connection keeps a map keyed by connections", () => {
    const keyed = filesIn("src/connection").filter((f) => /new WeakMap</.test(read(f)));
    expect(keyed).toEqual([]);
  });
});

/** A class's members in `file`: name, kind and whether it is private; and whether the class is exported. */
function classMembers(file: string, name: string): { exported: boolean; members: { name: string; kind: "field" | "method" | "accessor"; private: boolean }[] } {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const found = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === name);
  if (found === undefined) throw new Error(`no class ${name} in ${file}`);
  const modifiers = (n: ts.Node) => (ts.canHaveModifiers(n) ? (ts.getModifiers(n) ?? []) : []).map((m) => m.kind);
  const members = found.members.flatMap((m) => {
    if (m.name === undefined || ts.isConstructorDeclaration(m)) return [];
    const kind = ts.isPropertyDeclaration(m) ? "field" : ts.isMethodDeclaration(m) ? "method" : "accessor";
    return [{ name: m.name.getText(source), kind, private: modifiers(m).includes(ts.SyntaxKind.PrivateKeyword) || ts.isPrivateIdentifier(m.name) } as const];
  });
  return { exported: modifiers(found).includes(ts.SyntaxKind.ExportKeyword), members };
}

/** Writes into the pipeline from outside it: a field of `inbound` assigned, a sender patched in, a cast to reach either. */
const PIPELINE_WRITE = /\binbound\.\w+\s*=(?!=)|(?<!\bthis)\.extensionSender\s*=(?!=)|\bas CallHost\b|\.settledResponse\b/;
const PIPELINE_MODULE = "src/connection/pipeline.ts";
/** The state's module and the steps of the inbound path: the only modules that hold the pipeline's state. */
const STATE_MODULE_OF_PIPELINE = "src/connection/pipeline-state.ts";
const PIPELINE_MODULES = [PIPELINE_MODULE, STATE_MODULE_OF_PIPELINE, "src/connection/receive.ts", "src/connection/admit.ts", "src/connection/deliver.ts", "src/connection/run-handler.ts", "src/connection/answer.ts"];

describe("the inbound pipeline", () => {
  it("detects a write from outside (the check can fail)", () => {
    expect(PIPELINE_WRITE.test("this.inbound.settledResponse = true;")).toBe(true);
    expect(PIPELINE_WRITE.test("(core.inbound as CallHost<P>).extensionSender = sender;")).toBe(true);
    expect(PIPELINE_WRITE.test("if (inbound.takeSettledResponse()) drain();")).toBe(false);
    expect(PIPELINE_WRITE.test("this.extensionSender = makeSender(this);")).toBe(false);
  });

  it("is written only in the pipeline's modules: no field of it assigned elsewhere, no sender patched in, no cast", () => {
    const files = [...filesIn("src")].filter((f) => !PIPELINE_MODULES.includes(f));
    expect(
      files.filter((f) =>
        read(f)
          .split("\n")
          .some((line) => PIPELINE_WRITE.test(line)),
      ),
    ).toEqual([]);
  });

  it("keeps its state to its modules: only the pipeline's own modules import the state's module", () => {
    const importers = filesIn("src").filter((f) => importsOf(f).includes(STATE_MODULE_OF_PIPELINE));
    expect(importers.filter((f) => !PIPELINE_MODULES.includes(f))).toEqual([]);
    expect(importers.length).toBeGreaterThan(4);
  });

  it("shows methods only: Inbound's one field is private; the class holding the state has the pipeline's fields", () => {
    const inbound = classMembers(PIPELINE_MODULE, "Inbound");
    expect(inbound.exported).toBe(true);
    expect(inbound.members.filter((m) => m.kind === "field").map((m) => [m.name, m.private])).toEqual([["pipeline", true]]);
    expect(inbound.members.filter((m) => !m.private).map((m) => m.name)).toEqual(["processValue", "rejectOversized", "report", "responseSettled", "takeSettledResponse", "handler", "lanesSent", "settleInLane", "cancelOwnSession", "answerCancelledAtEnd", "close", "counts"]);
    const pipeline = classMembers(STATE_MODULE_OF_PIPELINE, "Pipeline");
    expect(pipeline.members.filter((m) => m.kind === "field").length).toBeGreaterThan(10);
  });

  it("gets the extension sender at construction, built before it, and every handler context reaches it", () => {
    expect(read(STATE_MODULE_OF_PIPELINE)).toMatch(/readonly extensionSender: ExtensionSender;/);
    expect(read("src/connection/call.ts")).toMatch(/readonly extensionSender: ExtensionSender;/);
    expect(read("src/connection/call.ts")).not.toMatch(/extensionSender\?/);
  });
});
