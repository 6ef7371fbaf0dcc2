// Differential corpus: every line of corpus.ndjson goes, over real stdio, to an agent built on the
// official SDK (test/peers/sdk-agent.ts) and to one built on acp-router (test/fixtures/router-agent.ts).
// Both columns are printed side by side; OUR column is asserted against the corpus's `ours`;
// docs/compatibility.md must explain every row where the columns differ.
//
// Corpus entry: { label, line (raw text) | json (sent JSON-encoded), phase?: "pre-init", ours, absent? }
//   ours: the lines we must write, in order:  { id, error: code, message?, data? } | { id, result }
//         (result "*" = any result) | { notification: method }
//   absent: a string none of our answers may contain.
// Placeholders: @SESSION@ (a session created after initialize), @1MIB@ / @33MIB@ (1 / 33 MiB of "x"),
// @DEEP200@ (an object nested 200 levels deep).
// Pre-init entries are sent first, on a fresh process; then `initialize`, `session/new` and the rest.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isObject, isResponse, key, LineAgent, summary, type Wire } from "./line-agent.ts";

const corpusPath = fileURLToPath(new URL("./corpus.ndjson", import.meta.url));
const compatibilityPath = fileURLToPath(new URL("../../docs/compatibility.md", import.meta.url));
const sdkAgent = ["--import", "tsx", fileURLToPath(new URL("../peers/sdk-agent.ts", import.meta.url)), "--serve-unadvertised"];
const routerAgent = ["--import", "tsx", fileURLToPath(new URL("../fixtures/router-agent.ts", import.meta.url)), "--caps=none"];

type Expected = { id: unknown; error: number; message?: string; data?: unknown } | { id: unknown; result: unknown } | { notification: string };
interface Case {
  label: string;
  line?: string;
  json?: unknown;
  phase?: "pre-init";
  ours: Expected[];
  absent?: string;
}

const corpus: Case[] = readFileSync(corpusPath, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Case);

const placeholders: Record<string, () => string> = {
  "@1MIB@": () => "x".repeat(1 << 20),
  "@33MIB@": () => "x".repeat(33 << 20),
  "@DEEP200@": () => `${'{"a":'.repeat(200)}1${"}".repeat(200)}`,
};

function render(c: Case, sessionId: string): string {
  let text = (c.line ?? JSON.stringify(c.json)).replaceAll("@SESSION@", sessionId);
  for (const [name, make] of Object.entries(placeholders)) if (text.includes(name)) text = text.replaceAll(name, make());
  return text;
}

/** The id a line's answer will carry when it is a request with a usable id (for waiting on late answers). */
function awaitedId(text: string): string | number | undefined {
  try {
    const v: unknown = JSON.parse(text);
    if (isObject(v) && typeof v.method === "string" && (typeof v.id === "string" || Number.isSafeInteger(v.id))) return v.id as string | number;
  } catch {
    // not JSON: answered -32700 by both, nothing to wait for
  }
  return undefined;
}

/** One side of the comparison: an agent process, restarted (and re-initialized) if a line kills it. */
class Side {
  agent: LineAgent;
  sessionId = "";
  restarts = 0;
  private syncs = 0;
  private readonly args: string[];
  constructor(args: string[]) {
    this.args = args;
    this.agent = new LineAgent(args);
  }

  async handshake(): Promise<void> {
    const init = await this.agent.call("init", "initialize", { protocolVersion: 1, clientCapabilities: {} });
    if (!isObject(init.result)) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
    const session = await this.agent.call("session", "session/new", { cwd: "/tmp", mcpServers: [] });
    this.sessionId = String((session.result as Wire | undefined)?.sessionId);
  }

  /** Sends one corpus line, then a sync probe; returns what the line produced (the probe's answer removed). */
  async run(c: Case): Promise<unknown[] | "exited"> {
    if (this.agent.exited) {
      // The previous line killed the agent: start a fresh, initialized one (only when still needed).
      this.restarts++;
      await this.agent.close();
      this.agent = new LineAgent(this.args);
      await this.handshake();
    }
    const text = render(c, this.sessionId);
    const from = this.agent.received.length;
    const syncId = `sync-${++this.syncs}`;
    this.agent.send(text);
    this.agent.send(JSON.stringify({ jsonrpc: "2.0", id: syncId, method: "_example.com/echo", params: {} }));
    const synced = await this.agent.waitFor((v) => isObject(v) && v.id === syncId, from, 5000);
    if (!synced) {
      if (!this.agent.exited) this.agent.child.kill("SIGKILL"); // hung: treat like an exit
      await this.agent.close();
      return "exited";
    }
    const produced = () => this.agent.received.slice(from).filter((v) => !(isObject(v) && v.id === syncId));
    // A request whose handler is still running (a prompt) may answer after the probe: wait for it.
    const id = produced().some((v) => isResponse(v) || Array.isArray(v)) ? undefined : awaitedId(text);
    if (id !== undefined) await this.agent.waitFor((v) => isResponse(v) && v.id === id, from, 1500);
    return produced();
  }
}

/** Projects what we wrote onto the fields the corpus expects, so toEqual shows a readable diff. */
function project(answers: unknown[], expected: Expected[]): unknown[] {
  return answers.map((v, i) => {
    const e = expected[i];
    if (!isObject(v) || e === undefined) return v;
    if ("notification" in e) return { notification: v.method };
    if ("error" in e) {
      const err = isObject(v.error) ? v.error : {};
      return {
        id: v.id,
        error: err.code,
        ...(e.message !== undefined ? { message: err.message } : {}),
        ...(e.data !== undefined ? { data: err.data } : {}),
      };
    }
    return { id: v.id, result: e.result === "*" && "result" in v ? "*" : v.result };
  });
}

interface Row {
  c: Case;
  sdk: unknown[] | "exited";
  ours: unknown[] | "exited";
  differs: boolean;
}

describe("the differential corpus, fed to the official SDK agent and to an acp-router agent over stdio", () => {
  const rows = new Map<string, Row>();
  let sdk: Side;
  let ours: Side;

  beforeAll(async () => {
    sdk = new Side(sdkAgent);
    ours = new Side(routerAgent);
    const ordered = [...corpus.filter((c) => c.phase === "pre-init"), ...corpus.filter((c) => c.phase !== "pre-init")];
    let initialized = false;
    for (const c of ordered) {
      if (c.phase !== "pre-init" && !initialized) {
        await Promise.all([sdk.handshake(), ours.handshake()]);
        initialized = true;
      }
      const [a, b] = await Promise.all([sdk.run(c), ours.run(c)]);
      const leak = c.absent !== undefined && JSON.stringify(a).includes(c.absent) !== JSON.stringify(b).includes(c.absent);
      rows.set(c.label, { c, sdk: a, ours: b, differs: key(a) !== key(b) || leak });
    }
    const w = Math.max(...corpus.map((c) => c.label.length));
    const sdkWidth = Math.max(...[...rows.values()].map((r) => summary(r.sdk).length), 10);
    const lines = [...rows.values()].map((r) => `${r.differs ? "≠" : " "} ${r.c.label.padEnd(w)} | ${summary(r.sdk).padEnd(sdkWidth)} | ${summary(r.ours)}`);
    console.log([`  ${"line".padEnd(w)} | ${"official SDK 2.4.0 agent".padEnd(sdkWidth)} | acp-router agent`, ...lines].join("\n"));
  }, 60_000);

  afterAll(async () => {
    await Promise.all([sdk?.agent.close(), ours?.agent.close()]);
  });

  it("has one uniquely labelled entry per line, the pre-init ones included", () => {
    expect(new Set(corpus.map((c) => c.label)).size).toBe(corpus.length);
    expect(corpus.filter((c) => c.phase === "pre-init").length).toBeGreaterThan(0);
    expect(corpus.length).toBeGreaterThan(60);
  });

  it.each(corpus.map((c) => [c.label, c] as const))("answers %s as the corpus expects", (_label, c) => {
    const row = rows.get(c.label);
    expect(row?.ours).not.toBe("exited");
    const answers = row?.ours as unknown[];
    expect(project(answers, c.ours)).toEqual(c.ours);
    if (c.absent !== undefined) expect(JSON.stringify(answers)).not.toContain(c.absent);
  });

  it("served the whole corpus on one acp-router process, and never wrote a line that is not JSON", () => {
    expect(ours.restarts).toBe(0);
    expect(ours.agent.exited).toBe(false);
    expect(ours.agent.received.filter((v) => isObject(v) && "unparsable" in v)).toEqual([]);
  });

  it("explains every row where the two agents differ in docs/compatibility.md", () => {
    const doc = readFileSync(compatibilityPath, "utf8");
    const differing = [...rows.values()].filter((r) => r.differs).map((r) => r.c.label);
    expect(differing.length).toBeGreaterThan(0);
    // A table row's first cell, whatever padding the formatter gave it.
    const labels = new Set(doc.split("\n").map((line) => line.split("|")[1]?.trim()));
    expect(differing.filter((label) => !labels.has(label))).toEqual([]);
  });
});
