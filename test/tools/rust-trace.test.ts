// The Rust conductor's trace format: `inspect --trace` writes it, `inspect report` and `inspect replay` read it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { readRecording } from "../../tools/inspect/recording.ts";
import type { ReplayOutcome } from "../../tools/inspect/replay-run.ts";
import { REDACTED, redactCredentials, rustTraceLines } from "../../tools/inspect/rust-trace.ts";
import { buildModel } from "../../tools/report/model.ts";
import { acpRouter, exampleAgent, exampleClient, fixture, repoRoot, runCommand, scratch, tsNode } from "./support.ts";

const schema = JSON.parse(readFileSync(join(repoRoot, "docs/rust-trace.schema.json"), "utf8")) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");
const events = (text: string) => lines(text).map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the Rust trace format, written", () => {
  it("turns requests, notifications, answers and each item of a batch into events; a line that is not JSON, or not a message, into none", () => {
    const out = (from: "client" | "agent", line: string, t = 12.5) => events(rustTraceLines(from, line, t));
    expect(out("client", '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}')).toEqual([{ type: "request", ts: 0.0125, protocol: "acp", from: "Client", to: "Agent", id: 7, method: "session/prompt", session: "s1", params: { sessionId: "s1", prompt: [] } }]);
    expect(out("agent", '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{}}}')).toEqual([{ type: "notification", ts: 0.0125, protocol: "acp", from: "Agent", to: "Client", method: "session/update", session: "s1", params: { sessionId: "s1", update: {} } }]);
    expect(out("agent", '{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn"}}')).toEqual([{ type: "response", ts: 0.0125, from: "Agent", to: "Client", id: 7, is_error: false, payload: { stopReason: "end_turn" } }]);
    expect(out("agent", '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}')).toEqual([{ type: "response", ts: 0.0125, from: "Agent", to: "Client", id: null, is_error: true, payload: { code: -32700, message: "Parse error" } }]);
    // No params: the Rust writer writes null; an initialize has no session.
    expect(out("client", '{"jsonrpc":"2.0","id":"a","method":"_x/ping"}')).toEqual([{ type: "request", ts: 0.0125, protocol: "acp", from: "Client", to: "Agent", id: "a", method: "_x/ping", params: null }]);
    // mcp/message is written as the MCP message it carries, with the outer id, as the conductor does.
    expect(out("agent", '{"jsonrpc":"2.0","id":3,"method":"mcp/message","params":{"serverId":"s","requestId":1,"method":"tools/call","params":{"name":"x"}}}')).toEqual([
      { type: "request", ts: 0.0125, protocol: "mcp", from: "Agent", to: "Client", id: 3, method: "tools/call", params: { name: "x" } },
    ]);
    expect(out("client", '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},5]').map((e) => `${String(e.type)} ${String(e.method)}`)).toEqual(["request a", "notification b"]);
    expect(rustTraceLines("client", "not json", 1)).toBe("");
    expect(rustTraceLines("client", '{"jsonrpc":"2.0","id":1}', 1)).toBe("");
    for (const line of ['{"jsonrpc":"2.0","id":7,"method":"m","params":{"sessionId":"s"}}', '{"jsonrpc":"2.0","id":7,"result":null}', '{"jsonrpc":"2.0","method":"n"}']) {
      for (const e of out("client", line)) expect(validate(e), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it("redacts credentials: env and header values, keys named like a credential; nothing else", () => {
    const params = {
      sessionId: "s1",
      cwd: "/tmp",
      mcpServers: [
        { name: "a", command: "x", args: ["--token-file", "f"], env: [{ name: "API_KEY", value: "sk-1" }] },
        { type: "http", name: "b", url: "http://127.0.0.1:1/mcp", headers: [{ name: "Authorization", value: "Bearer t" }] },
      ],
      _meta: { apiKey: "k", authorization: "Bearer z", nested: { password: "p", count: 3 } },
    };
    expect(redactCredentials(params)).toEqual({
      sessionId: "s1",
      cwd: "/tmp",
      mcpServers: [
        { name: "a", command: "x", args: ["--token-file", "f"], env: [{ name: "API_KEY", value: REDACTED }] },
        { type: "http", name: "b", url: "http://127.0.0.1:1/mcp", headers: [{ name: "Authorization", value: REDACTED }] },
      ],
      _meta: { apiKey: REDACTED, authorization: REDACTED, nested: { password: REDACTED, count: 3 } },
    });
    const written = rustTraceLines("agent", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "terminal/create", params: { sessionId: "s1", command: "env", env: [{ name: "TOKEN", value: "secret-1" }] } }), 0);
    expect(written).not.toContain("secret-1");
    expect(events(written)[0]?.params).toEqual({ sessionId: "s1", command: "env", env: [{ name: "TOKEN", value: REDACTED }] });
  });
});

describe("acp-router inspect --trace, report and replay on the Rust format", () => {
  const dir = scratch();
  const files = { trace: join(dir, "tour.jsons"), record: join(dir, "tour.ndjson"), summary: join(dir, "summary.txt") };

  beforeAll(async () => {
    const agent = acpRouter("inspect", "--summary", files.summary, "--record", files.record, "--trace", files.trace, "--", ...tsNode(exampleAgent))
      .map((w) => JSON.stringify(w))
      .join(" ");
    const run = await runCommand(tsNode(exampleClient, "--tour", "--protocol", "1", "--agent", agent), "", 60_000);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  }, 70_000);

  it("writes one event per message of the recording, each valid against the format's schema, between Client and Agent", () => {
    const written = events(readFileSync(files.trace, "utf8"));
    const recorded = readRecording(readFileSync(files.record, "utf8")).filter((e) => e.type === "message");
    expect(written.length).toBe(recorded.length);
    expect(written.length).toBeGreaterThan(20);
    for (const e of written) expect(validate(e), `${JSON.stringify(e).slice(0, 200)}: ${JSON.stringify(validate.errors)}`).toBe(true);
    written.forEach((e, i) => {
      const r = recorded[i]!;
      const msg = r.type === "message" ? (r.msg as Record<string, unknown>) : {};
      expect({ from: e.from, to: e.to }).toEqual(r.from === "client" ? { from: "Client", to: "Agent" } : { from: "Agent", to: "Client" });
      if (typeof msg.method === "string") expect({ type: e.type, method: e.method, id: e.id }).toEqual({ type: "id" in msg ? "request" : "notification", method: msg.method, id: msg.id });
      else expect({ type: e.type, id: e.id, is_error: e.is_error }).toEqual({ type: "response", id: msg.id, is_error: "error" in msg });
    });
    const ts = written.map((e) => e.ts as number);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    expect(ts.at(-1)!).toBeLessThan(120);
  });

  it("opens in report like the recording: the same messages, pairs and verdicts", () => {
    const fromTrace = buildModel(readFileSync(files.trace, "utf8"));
    const fromRecord = buildModel(readFileSync(files.record, "utf8"));
    const shape = (m: ReturnType<typeof buildModel>) => m.messages.map((x) => `${x.from} ${x.kind} ${x.method} ${x.id} ${x.session} ${x.pair ?? "-"}`);
    expect(shape(fromTrace)).toEqual(shape(fromRecord));
    expect(fromTrace.violations).toEqual([]);
    expect(fromTrace.messages[0]).toMatchObject({ hop: "Client ↔ Agent", fromName: "Client", toName: "Agent" });
  });

  it("replays against the same agent with no difference", async () => {
    const run = await runCommand(acpRouter("inspect", "replay", files.trace, "--json", "--", ...tsNode(exampleAgent)), "", 60_000);
    const report = JSON.parse(run.stdout.toString("utf8")) as ReplayOutcome & { same: boolean };
    expect({ code: run.code, differences: report.differences, same: report.same }).toEqual({ code: 0, differences: [], same: true });
    expect(report.sent.requests).toBeGreaterThanOrEqual(8);
    expect(report.compared.answers).toBe(report.sent.requests);
  }, 70_000);
});

describe("a Rust-format trace of a chain, read", () => {
  const text = readFileSync(fixture("rust-trace-chain.jsons"), "utf8");

  it("is valid against the format's schema, line by line (the fixture is what the report test reads)", () => {
    for (const e of events(text)) expect(validate(e), JSON.stringify(validate.errors)).toBe(true);
  });

  it("shows every message with its hop, the MCP call marked, trace ids, and requests paired with their answers per hop", async () => {
    const model = buildModel(text);
    expect(model.messages.length).toBe(lines(text).length);
    const row = (i: number) => {
      const m = model.messages[i]!;
      return `${m.fromName}→${m.toName} ${m.kind} ${m.method} ${m.id} pair=${m.pair ?? "-"} ${m.traceId}`;
    };
    expect(model.messages.map((_, i) => row(i))).toEqual([
      "Client→Proxy(0) request _proxy/initialize 0 pair=3 ",
      'Proxy(0)→Agent request initialize "c-1" pair=2 ',
      'Agent→Proxy(0) response initialize "c-1" pair=1 ',
      "Proxy(0)→Client response initialize 0 pair=0 ",
      "Client→Proxy(0) request session/new 1 pair=7 ",
      'Proxy(0)→Agent request session/new "c-2" pair=6 ',
      'Agent→Proxy(0) response session/new "c-2" pair=5 ',
      "Proxy(0)→Client response session/new 1 pair=4 ",
      "Client→Proxy(0) request session/prompt 2 pair=15 4bf92f3577b34da6a3ce929d0e0e4736",
      'Proxy(0)→Agent request session/prompt "c-3" pair=14 4bf92f3577b34da6a3ce929d0e0e4736',
      'Agent→Proxy(0) request tools/call [mcp] "a-1" pair=- ',
      'Proxy(0)→Agent response  [mcp] "a-1" pair=- ',
      "Agent→Proxy(0) notification session/update  pair=- ",
      "Proxy(0)→Client notification session/update  pair=- ",
      'Agent→Proxy(0) response session/prompt "c-3" pair=9 ',
      "Proxy(0)→Client response session/prompt 2 pair=8 ",
      "Client→Proxy(0) request session/set_mode 3 pair=17 ",
      "Proxy(0)→Client response session/set_mode 3 pair=16 ",
    ]);
    expect(model.violations.map((v) => `${v.requirement} ${v.message}`)).toEqual([]);
    const dir = scratch();
    const html = join(dir, "chain.html");
    const run = await runCommand(acpRouter("inspect", "report", fixture("rust-trace-chain.jsons"), "-o", html));
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: `acp-router inspect report: 18 messages, 0 violations → ${html}\n` });
    const page = readFileSync(html, "utf8");
    for (let i = 0; i < 18; i++) expect(page).toContain(`id="m-${i}"`);
    expect(page).toContain("Proxy(0) → Agent");
    expect(page).toContain('data-trace="4bf92f3577b34da6a3ce929d0e0e4736"');
  }, 30_000);
});
