// The ACP v2 differential corpus: every line of corpus-v2.ndjson goes, over real stdio, to the SDK's
// v2-only agent (test/peers/sdk-v2-agent.ts) and to ours (test/fixtures/router-v2-agent.ts: routeAgent
// with a v2 route, then an acp-router/v2 connection). It covers the rules v2 changes: request ids,
// initialize repeated before and after the first other request, JSON-RPC batches, and -32022.
// Both columns are printed side by side; OUR column is asserted against the corpus's `ours`; the
// "ACP v2" section of docs/compatibility.md must explain every row where the columns differ.
//
// Corpus entry: { label, line (raw text) | json (sent JSON-encoded), phase?, ours }
//   phase: "pre-init" (a fresh process, before any initialize), "window" (after the first initialize,
//   before any other request), or absent (after initialize and session/new).
//   ours: the lines we must write, in order: { id, error: code, message?, data? } | { id, result }
//   (result "*" = any result) | { notification: method } | { batch: [those, in order] }.
// Placeholder: @SESSION@ (the session created after initialize).
// After each line a probe request follows (see `probes`), answered through the same path as requests:
// session/new before initialize (rejected), initialize in the window (a repeat keeps it open), an
// unknown method after.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isObject, isResponse, key, LineAgent, summary, type Wire } from "./line-agent.ts";

const corpusPath = fileURLToPath(new URL("./corpus-v2.ndjson", import.meta.url));
const compatibilityPath = fileURLToPath(new URL("../../docs/compatibility.md", import.meta.url));
const sdkAgent = ["--import", "tsx", fileURLToPath(new URL("../peers/sdk-v2-agent.ts", import.meta.url))];
const routerAgent = ["--import", "tsx", fileURLToPath(new URL("../fixtures/router-v2-agent.ts", import.meta.url))];
const initialize = { protocolVersion: 2, info: { name: "differential", version: "1" }, capabilities: {} };

type Answer = { id: unknown; error: number; message?: string; data?: unknown } | { id: unknown; result: unknown } | { notification: string };
type Expected = Answer | { batch: Answer[] };
type Phase = "pre-init" | "window" | "session";
interface Case {
  label: string;
  line?: string;
  json?: unknown;
  phase?: Phase;
  ours: Expected[];
}

const corpus: Case[] = readFileSync(corpusPath, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Case);
const phaseOf = (c: Case): Phase => c.phase ?? "session";

/** The id a line's answer will carry when it is a request with a usable id (for waiting on late answers). */
function awaitedId(text: string): string | number | undefined {
  const v: unknown = JSON.parse(text);
  return isObject(v) && typeof v.method === "string" && (typeof v.id === "string" || Number.isSafeInteger(v.id)) ? (v.id as string | number) : undefined;
}

/** The request sent after each line of a phase: answered in every phase, and never closing the initialize window. */
const probes: Record<Phase, { method: string; params: object }> = {
  "pre-init": { method: "session/new", params: { cwd: "/tmp" } },
  window: { method: "initialize", params: initialize },
  session: { method: "_probe/unknown", params: {} },
};

/** One side of the comparison: an agent process, restarted if a line kills it. */
class Side {
  agent: LineAgent;
  sessionId = "";
  restarts = 0;
  private probes = 0;
  private readonly args: string[];
  constructor(args: string[]) {
    this.args = args;
    this.agent = new LineAgent(args);
  }

  async initialize(): Promise<void> {
    const init = await this.agent.call("init", "initialize", initialize);
    if (!isObject(init.result)) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  }

  async newSession(): Promise<void> {
    const session = await this.agent.call("session", "session/new", { cwd: "/tmp" });
    this.sessionId = String((session.result as Wire | undefined)?.sessionId);
  }

  /** Sends one corpus line, then a probe; returns what the line produced (the probe's answer removed). */
  async run(c: Case): Promise<unknown[] | "exited"> {
    if (this.agent.exited) {
      this.restarts++;
      await this.agent.close();
      this.agent = new LineAgent(this.args);
      if (phaseOf(c) !== "pre-init") await this.initialize();
      if (phaseOf(c) === "session") await this.newSession();
    }
    const text = (c.line ?? JSON.stringify(c.json)).replaceAll("@SESSION@", this.sessionId);
    const from = this.agent.received.length;
    const probeId = `probe-${++this.probes}`;
    const isProbe = (v: unknown) => isObject(v) && v.id === probeId;
    this.agent.send(text);
    this.agent.send(JSON.stringify({ jsonrpc: "2.0", id: probeId, ...probes[phaseOf(c)] }));
    if (!(await this.agent.waitFor(isProbe, from, 10_000))) {
      if (!this.agent.exited) this.agent.child.kill("SIGKILL");
      await this.agent.close();
      return "exited";
    }
    const produced = () => {
      const lines = this.agent.received.slice(from);
      const probe = lines.findIndex(isProbe);
      return lines.filter((_, i) => i !== probe);
    };
    // An answer from an async handler may come after the probe's: wait for it.
    const id = awaitedId(text);
    if (id !== undefined && !produced().some((v) => isResponse(v) && v.id === id)) await this.agent.waitFor((v) => isResponse(v) && v.id === id, from, 2000);
    return produced();
  }
}

/** Projects one answer we wrote onto the fields the corpus expects, so toEqual shows a readable diff. */
function projectOne(v: unknown, e: Answer | undefined): unknown {
  if (!isObject(v) || e === undefined) return v;
  if ("notification" in e) return { notification: v.method };
  if ("error" in e) {
    const err = isObject(v.error) ? v.error : {};
    return { id: v.id, error: err.code, ...(e.message !== undefined ? { message: err.message } : {}), ...(e.data !== undefined ? { data: err.data } : {}) };
  }
  return { id: v.id, result: e.result === "*" && "result" in v ? "*" : v.result };
}

function project(answers: unknown[], expected: Expected[]): unknown[] {
  return answers.map((v, i) => {
    const e = expected[i];
    if (Array.isArray(v) && e !== undefined && "batch" in e) return { batch: v.map((item, j) => projectOne(item, e.batch[j])) };
    return projectOne(v, e !== undefined && "batch" in e ? undefined : e);
  });
}

interface Row {
  c: Case;
  sdk: unknown[] | "exited";
  ours: unknown[] | "exited";
  differs: boolean;
}

/** The "## ACP v2 …" section of docs/compatibility.md, up to the next second-level heading. */
function v2Section(doc: string): string {
  const start = doc.indexOf("\n## ACP v2");
  if (start === -1) return "";
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

describe("the v2 differential corpus, fed to the SDK's v2 agent and to an acp-router v2 agent over stdio", () => {
  const rows = new Map<string, Row>();
  let sdk: Side;
  let ours: Side;

  beforeAll(async () => {
    sdk = new Side(sdkAgent);
    ours = new Side(routerAgent);
    const phases: Phase[] = ["pre-init", "window", "session"];
    for (const phase of phases) {
      if (phase === "window") await Promise.all([sdk.initialize(), ours.initialize()]);
      if (phase === "session") await Promise.all([sdk.newSession(), ours.newSession()]);
      for (const c of corpus.filter((x) => phaseOf(x) === phase)) {
        const [a, b] = await Promise.all([sdk.run(c), ours.run(c)]);
        rows.set(c.label, { c, sdk: a, ours: b, differs: key(a) !== key(b) });
      }
    }
    const w = Math.max(...corpus.map((c) => c.label.length));
    const sdkWidth = Math.max(...[...rows.values()].map((r) => summary(r.sdk).length), 10);
    const lines = [...rows.values()].map((r) => `${r.differs ? "≠" : " "} ${r.c.label.padEnd(w)} | ${summary(r.sdk).padEnd(sdkWidth)} | ${summary(r.ours)}`);
    console.log([`  ${"line".padEnd(w)} | ${"official SDK 2.4.0 v2 agent".padEnd(sdkWidth)} | acp-router v2 agent`, ...lines].join("\n"));
  }, 90_000);

  afterAll(async () => {
    await Promise.all([sdk?.agent.close(), ours?.agent.close()]);
  });

  it("has one uniquely labelled entry per line, in every phase", () => {
    expect(new Set(corpus.map((c) => c.label)).size).toBe(corpus.length);
    expect(new Set(corpus.map(phaseOf))).toEqual(new Set(["pre-init", "window", "session"]));
  });

  it.each(corpus.map((c) => [c.label, c] as const))("answers %s as the corpus expects", (_label, c) => {
    const row = rows.get(c.label);
    expect(row?.ours).not.toBe("exited");
    expect(project(row?.ours as unknown[], c.ours)).toEqual(c.ours);
  });

  it("served the whole corpus on one acp-router process, and never wrote a line that is not JSON", () => {
    expect(ours.restarts).toBe(0);
    expect(ours.agent.exited).toBe(false);
    expect(ours.agent.received.filter((v) => isObject(v) && "unparsable" in v)).toEqual([]);
  });

  it("explains every row where the two agents differ in the ACP v2 section of docs/compatibility.md", () => {
    const section = v2Section(readFileSync(compatibilityPath, "utf8"));
    const differing = [...rows.values()].filter((r) => r.differs).map((r) => r.c.label);
    expect(differing.length).toBeGreaterThan(0);
    // A table row's first cell, whatever padding the formatter gave it.
    const labels = new Set(section.split("\n").map((line) => line.split("|")[1]?.trim()));
    expect(differing.filter((label) => !labels.has(label))).toEqual([]);
  });
});
