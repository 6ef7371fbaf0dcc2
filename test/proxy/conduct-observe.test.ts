// What `acp-router conduct --trace` and `--summary` see of each hop: a Rust-format trace naming Client,
// Proxy(N) and Agent, and one monitor per hop; the same for a proxy hosted in the conductor's process as for one
// in a process of its own.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRustTrace } from "../../tools/inspect/rust-trace.ts";
import { runProcess } from "../support/process.ts";
import { scratch } from "../tools/support.ts";
import { bin, commandLine, exampleAgent, exampleClient, exampleProxy } from "./fixtures.ts";

const module = (name: string) => new URL(name, import.meta.url).pathname;

/** One event of the Rust format as written. */
interface TraceEvent {
  readonly type: string;
  readonly from: string;
  readonly to: string;
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: unknown;
}

/** Runs the example client's hello and plan prompts through `conduct` with `own` options and `components`; the trace's events and the summary. */
async function observed(own: readonly string[], components: readonly (readonly string[])[]) {
  const dir = scratch();
  const chain = bin("conduct", "--trace", join(dir, "trace.jsons"), "--summary", join(dir, "summary.json"), ...own, ...components.flatMap((c) => ["--", ...c]));
  const run = await runProcess(process.execPath, ["--import", "tsx", exampleClient, "--prompt", "hello", "--prompt", "plan", "--protocol", "1", "--agent", commandLine(chain)], { timeoutMs: 120_000 });
  expect(run.code).toBe(0);
  const text = readFileSync(join(dir, "trace.jsons"), "utf8");
  expect(isRustTrace(text)).toBe(true);
  // The events as written (the Rust format's own fields: type, from, to, id, method, params, …).
  const events = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TraceEvent);
  const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { hops: { hop: string; summary: { violations: unknown[]; messages: { client: number; agent: number } } }[] };
  return { events, summary };
}

/** The trace as its shape: type, from, to and method (a response: the method of its request on that hop). */
function shape(events: readonly TraceEvent[]): string[] {
  const methods = new Map<string, string>();
  return events.map((e) => {
    const key = `${e.type === "response" ? `${e.to}>${e.from}` : `${e.from}>${e.to}`} ${JSON.stringify(e.id)}`;
    if (e.type === "request") methods.set(key, e.method ?? "");
    return `${e.type} ${e.from}→${e.to} ${e.type === "response" ? methods.get(key) : e.method}`;
  });
}

describe("acp-router conduct --trace and --summary", () => {
  it("trace every hop in the Rust format and judge each with a monitor, a hosted proxy as one in its own process", async () => {
    const hosted = await observed(["--proxy-module", module("./modules/example-A.ts")], [exampleAgent()]);
    const spawned = await observed([], [exampleProxy("--name", "A"), exampleAgent()]);
    for (const { events, summary } of [hosted, spawned]) {
      expect(new Set(events.map((e) => `${e.from}→${e.to}`))).toEqual(new Set(["Client→Proxy(0)", "Proxy(0)→Client", "Proxy(0)→Agent", "Agent→Proxy(0)"]));
      // Every request on a hop is answered on that hop, under its id there.
      const requests = events.filter((e) => e.type === "request").map((e) => `${e.from}→${e.to} ${JSON.stringify(e.id)}`);
      const responses = events.filter((e) => e.type === "response").map((e) => `${e.to}→${e.from} ${JSON.stringify(e.id)}`);
      expect(responses.sort()).toEqual(requests.sort());
      // The prompt reached the agent with proxy A's context (unwrapped from proxy/successor on the hop).
      const toAgent = events.find((e) => e.type === "request" && e.to === "Agent" && e.method === "session/prompt");
      expect(JSON.stringify(toAgent?.params)).toContain("context://A");
      expect(summary.hops.map((h) => [h.hop, h.summary.violations])).toEqual([
        ["Client ↔ Proxy(0)", []],
        ["Proxy(0) ↔ Agent", []],
      ]);
    }
    expect(shape(hosted.events)).toEqual(shape(spawned.events));
  }, 240_000);

  it("trace a message a hosted proxy passes verbatim on both of its hops, under the ids it has there", async () => {
    const { events, summary } = await observed(["--proxy-module", module("./pass-proxy.ts")], [exampleAgent()]);
    const prompts = events.filter((e) => e.method === "session/prompt");
    expect(prompts.map((e) => `${e.from}→${e.to}`)).toEqual(["Client→Proxy(0)", "Proxy(0)→Agent", "Client→Proxy(0)", "Proxy(0)→Agent"]);
    const answers = events.filter((e) => e.type === "response" && prompts.some((p) => p.id === e.id && p.to === e.from));
    expect(answers.map((e) => `${e.from}→${e.to}`)).toEqual(["Agent→Proxy(0)", "Proxy(0)→Client", "Agent→Proxy(0)", "Proxy(0)→Client"]);
    expect(summary.hops.map((h) => h.summary.violations)).toEqual([[], []]);
  }, 120_000);
});
