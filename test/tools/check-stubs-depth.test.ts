// `acp-router check`'s depth probes against a scripted stub agent (test/fixtures/check-depth-agent.mjs): the
// well-behaved stub fails nothing, and each mode breaks exactly one rule, which check catches on exactly the
// rows that state it (plus inspect's schema or ordering rule where the same line also breaks one), with the
// evidence. Also: a prompt answered after --timeout passes with its latency noted.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CheckReport } from "../../tools/check/main.ts";
import { startDriver, type AgentLine } from "../../tools/check/driver.ts";
import { bundledCli, checkJson, exampleAgent, fixture, repoRoot, scratch, STUB_WINDOWS, tsNode } from "./support.ts";

const stub = fileURLToPath(new URL("../fixtures/check-depth-agent.mjs", import.meta.url));

/** Runs check --protocol 1 --timeout 2 (killed after 80 s) on the stub in `mode`, and parses its JSON scorecard. */
const check = (...mode: string[]) => checkWindows(STUB_WINDOWS, ...mode);

/** The same with check's watch windows given (`--quiet`, `--exit-grace`). */
async function checkWindows(windows: readonly string[], ...mode: string[]) {
  const [file, ...rest] = bundledCli("check", "--json", ...windows, "--protocol", "1", "--timeout", "2", "--cwd", scratch(), "--", process.execPath, stub, ...mode) as [string, ...string[]];
  const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(file, rest, { cwd: repoRoot, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 80_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
  const card = JSON.parse(run.stdout) as CheckReport;
  const row = (id: string) => card.rows.find((r) => r.id === id);
  const failed = card.rows
    .filter((r) => r.outcome === "fail")
    .map((r) => r.id)
    .sort();
  return { code: run.code, card, row, failed };
}

describe("check's depth probes against a scripted stub agent", () => {
  it("the well-behaved stub: no fail, no row without a probe, and the features it offers are judged pass", async () => {
    const { code, card, row, failed } = await check();
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(card.rows.filter((r) => r.outcome === "not run")).toEqual([]);
    for (const id of [
      "ACP-CONFIG-003",
      "ACP-CONFIG-002",
      "ACP-CONFIG-101",
      "ACP-LOAD-102",
      "ACP-LOAD-002",
      "ACP-RESUME-002",
      "ACP-CLOSE-002",
      "ACP-LIST-002",
      "ACP-LIST-107",
      "ACP-DELETE-002",
      "ACP-CLIENTCAP-001",
      "ACP-CLIENTCAP-002",
      "ACP-INIT-003",
      "ACP-TOOL-102",
      "ACP-PLAN-103",
      "ACP-TERM-104",
      "ACP-PATH-101",
      "ACP-SESSION-002",
      "ACP-CANCEL-001",
      "ACP-CANCEL-205",
      "ACP-SESSION-104",
      "ACP-SESSION-105",
      "ACP-SESSION-401",
      "ACP-SESSION-402",
      "ACP-SESSION-403",
      "ACP-SESSION-404",
      "ACP-SESSION-405",
      "ACP-SESSION-406",
      "ACP-SESSION-408",
    ])
      expect(row(id)?.outcome, id).toBe("pass");
    expect(row("ACP-ELICIT-111")).toMatchObject({ outcome: "not observable", evidence: "whether a form field asks for a secret is a judgement about its meaning, not its shape" });
  }, 90_000);

  it.each([
    ["boolean-config", ["ACP-CONFIG-003"], /^check's client did not advertise session\.configOptions\.boolean, yet the agent offered a boolean option in an answer: /],
    ["fs-ungated", ["ACP-CLIENTCAP-001", "ACP-FS-101", "ACP-INIT-107"], /^check's client advertised no fs capability, yet the agent sent \{"jsonrpc":"2\.0","id":\d+,"method":"fs\/read_text_file"/],
    ["no-release", ["ACP-TERM-104"], /^terminal check-terminal-1 was never released$/],
    ["permission-end-turn", ["ACP-CANCEL-001"], /^a turn cancelled during its permission request \(session\/cancel, then the outcome "cancelled"\) was answered stopReason "end_turn"$/],
    ["same-session-id", ["ACP-SESSION-002"], /^session\/new answered the same sessionId twice: \["d1","d1"/],
    ["echo-version", ["ACP-INIT-003"], /^check sent \{"jsonrpc":"2\.0","id":\d+,"method":"initialize","params":\{"protocolVersion":9999,.*\}; the agent answered \{"jsonrpc":"2\.0","id":\d+,"result":\{"protocolVersion":9999,.*\}: protocolVersion 9999, not the latest version the agent supports$/],
    // One rule (paths follow the session cwd), stated three times in the catalogue.
    ["spawn-dir-paths", ["ACP-SESSION-105", "ACP-SESSION-104", "ACP-SESSION-107"], /^acp-router-check\.txt, relative to the session cwd \S+, was resolved to "[^"]+\/acp-router-check\.txt"$/],
    // One observation, two rows: shown once, on the first, which names the other.
    ["unadvertised-extension", ["ACP-EXT-103", "ACP-EXT-202"], /^the agent served a custom `_` request with a result, but advertises nothing under agentCapabilities\._meta\. The same fact decides ACP-EXT-202 \(counted once, here\)$/],
    ["status-updates", ["ACP-SESSION-405"], /^session\/status was followed by a session\/update: /],
    ["archive-keeps-running", ["ACP-SESSION-403"], /^a running turn whose session was archived was answered \{"jsonrpc":"2\.0","id":\d+,"result":\{"stopReason":"end_turn"\}\}, not stopReason "cancelled"$/],
    // The same lines break inspect's ordering rule (updates after an answer) or the schema: the monitor's row fails too.
    ["load-answer-first", ["ACP-LOAD-002", "ACP-PROMPT-001"], /^check sent \{"jsonrpc":"2\.0","id":\d+,"method":"session\/load",.*; the agent answered \{"jsonrpc":"2\.0","id":\d+,"result":.*, and after that answer came a conversation update: \{"jsonrpc":"2\.0","method":"session\/update"/],
    ["bad-traceparent", ["ACP-META-101"], /^in the agent's _meta, traceparent "session-1" is not version-traceid-parentid-flags in lowercase hex; the key is reserved for W3C trace context: \{"jsonrpc":"2\.0","id":\d+,"result":\{"sessionId":/],
    ["custom-root-field", ["ACP-SCHEMA-002"], /^custom fields at the root of spec types, which no published ACP schema defines \(custom data goes in _meta\): a session\/new answer has the field "flavour"$/],
    // The entries break the schema too, but it marks plan entries skip-invalid-items (a receiver drops them): inspect's finding is a note.
    ["plan-unprioritised", ["ACP-PLAN-103"], /^a plan update without the complete entries \(content, priority, status each\): /],
  ])(
    "%s: caught on %j only",
    async (mode, rows, evidence) => {
      const { code, row, failed } = await check(mode);
      expect(failed).toEqual([...rows].sort());
      // Exit 1 exactly when one of them is a MUST (or MUST NOT).
      expect(code).toBe(rows.some((id) => row(id)?.tier.startsWith("MUST") === true) ? 1 : 0);
      expect(row(rows[0]!)?.evidence).toMatch(evidence);
    },
    90_000,
  );

  it("a prompt answered after --timeout: the rows pass with the latency noted, and the scorecard lists the late answers", async () => {
    // The default quiet window (1 s): probes then take longer than the late answer's 3 s, so the
    // session/cancel of the cancel probe comes after it, as it would with a real slow agent. With 0.1 s
    // the cancel can reach the session while the late turn (which ignores cancels) is still running.
    const { code, row, failed, card } = await checkWindows(["--exit-grace", "1"], "late-prompt", "3000");
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    for (const id of ["ACP-PROMPT-001", "ACP-PROMPT-101", "ACP-SESSION-101"]) expect(row(id), id).toMatchObject({ outcome: "pass", evidence: expect.stringMatching(/^answered after 3(\.\d)? s \(past --timeout 2 s\)$/) as unknown });
    expect(card.notes.find((n) => n.startsWith("late answers"))).toMatch(/^late answers \(after --timeout 2 s; not violations\): ACP-PROMPT-001 3(\.\d)? s, /);
  }, 90_000);
});

describe("a cancelled prompt compared with an uncancelled one", () => {
  it("when the text prompt errors, a prompt cancelled 50 ms in and answered end_turn is a MUST fail of ACP-CANCEL-001, not n/a", async () => {
    const [file, ...rest] = bundledCli("check", "--json", ...STUB_WINDOWS, "--protocol", "1", "--timeout", "2", "--cwd", scratch(), "--", process.execPath, fileURLToPath(new URL("../fixtures/check-agent.mjs", import.meta.url)), "error-unless-cancelled") as [string, ...string[]];
    const stdout = await new Promise<string>((resolve) => {
      const child = spawn(file, rest, { cwd: repoRoot, stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.once("close", () => resolve(out));
    });
    const card = JSON.parse(stdout) as CheckReport;
    expect(card.rows.filter((r) => r.outcome === "fail").map((r) => r.id)).toEqual(["ACP-CANCEL-001"]);
    expect(card.rows.find((r) => r.id === "ACP-CANCEL-001")?.evidence).toMatch(
      /^a prompt cancelled with session\/cancel was answered stopReason "end_turn" \d+ ms after session\/cancel; the same prompt uncancelled was answered error -32000 "model unreachable" after \d+(\.\d)? s, so the turn did not complete its work$/,
    );
  }, 90_000);
});

describe("what check no longer charges", () => {
  it("a session/new answer with models (defined by SDK 0.4.5–0.23.0's schema, withdrawn in 0.24.0) is schema drift: a note naming that schema, no fail", async () => {
    const { code, card, row, failed } = await check("models-field");
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(row("ACP-SCHEMA-002")?.outcome).toBe("pass");
    expect(card.notes).toContain(
      'ACP-SCHEMA-002: a session/new answer has the field "models", which NewSessionResponse had in @agentclientprotocol/sdk 0.4.5–0.23.0, schema/schema.json (the unstable session model selection) and the schema withdrew in 0.24.0 (2026-06-04); schema drift, not a custom field',
    );
  }, 90_000);

  it("exercise prompts left unanswered at the timeout in the capabilities run are no evidence that the agent cannot cope: ACP-INIT-106 is n/a, not a fail", async () => {
    const { code, row, failed } = await check("slow-with-capabilities");
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(row("ACP-INIT-106")).toMatchObject({ outcome: "n/a", evidence: expect.stringMatching(/^in the capabilities run \(every client capability advertised\), \d of \d exercise prompts got no answer within \d+(\.\d)? s: not shown either way$/) as string });
  }, 90_000);

  it("an available_commands_update after the session/load answer is no late replay (an agent may send it at any time): ACP-LOAD-002 passes, the update is noted", async () => {
    const { code, card, row, failed } = await check("commands-after-load");
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(row("ACP-LOAD-002")?.outcome).toBe("pass");
    expect(card.notes.some((n) => n.startsWith("ACP-LOAD-002: after the session/load answer came 1 update(s) that are not conversation history (available_commands_update)"))).toBe(true);
  }, 90_000);
});

describe("the repository's agents under check's depth probes", () => {
  /** Runs check --json on `agent` with `protocol`, parsed. */
  async function score(protocol: string, agent: readonly string[]) {
    const card = await checkJson(["--protocol", protocol, "--cwd", scratch()], agent);
    const count = (o: string) => card.rows.filter((r) => r.outcome === o).length;
    return { card, count, judged: count("pass") + count("fail") + count("n/a") };
  }
  const mock = bundledCli("mock-agent");

  it.each([["1"], ["2"]])(
    "acp-router mock-agent, protocol %s: no fail, no row without a probe, at least 90 percent of the observable rows judged",
    async (protocol) => {
      const { card, count, judged } = await score(protocol, mock);
      expect({ failed: card.rows.filter((r) => r.outcome === "fail").map((r) => r.id), notRun: count("not run") }).toEqual({ failed: [], notRun: 0 });
      expect(judged / (card.rows.length - count("not observable"))).toBeGreaterThanOrEqual(0.9);
      // v1: a client that did not advertise boolean config options is offered none (the old mock offered `verbose` as a boolean).
      if (protocol === "1") expect(card.rows.find((r) => r.id === "ACP-CONFIG-003")?.outcome).toBe("pass");
    },
    90_000,
  );
});

describe("the v2 example agent's session/resume", () => {
  it("an agent whose every prompt is refused (offline) after an update for its session: a turn ended by session/close cannot be told from one failing on its own, so ACP-CLOSE-002 is n/a, not a fail", async () => {
    const { row } = await check("prompts-refused");
    expect(row("ACP-CLOSE-002")).toMatchObject({ outcome: "n/a", evidence: "no prompt was answered with a result, so a turn ended by session/close could not be told from one failing on its own" });
  }, 90_000);

  it('replays with replayFrom {"type":"start"} exactly the updates the client saw live (the echoed user message included), before its answer', async () => {
    const d = startDriver(tsNode(exampleAgent), { timeout: 10_000, graceMs: 2000 });
    try {
      const updates = (from: number, to: number, sessionId: string) =>
        d.lines
          .slice(from, to)
          .map((l: AgentLine) => l.body)
          .filter((b) => b?.method === "session/update" && (b.params as { sessionId?: unknown }).sessionId === sessionId)
          .map((b) => (b!.params as { update: { sessionUpdate: string } }).update)
          .filter((u) => u.sessionUpdate !== "state_update");
      expect((await d.request("initialize", { protocolVersion: 2, info: { name: "t", version: "0" }, capabilities: {} }))?.result).toMatchObject({ protocolVersion: 2 });
      const sessionId = ((await d.request("session/new", { cwd: scratch(), mcpServers: [] }))?.result as { sessionId: string }).sessionId;
      const liveFrom = d.lines.length;
      await d.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello there" }] });
      const idle = await d.waitFor((l) => (l.body?.params as { update?: { state?: unknown } } | undefined)?.update?.state === "idle", 10_000, liveFrom);
      expect(idle).toBeDefined();
      const live = updates(liveFrom, d.lines.length, sessionId);
      expect(live[0]).toMatchObject({ sessionUpdate: "user_message", content: [{ type: "text", text: "hello there" }] });
      const at = d.lines.length;
      const resumed = await d.request("session/resume", { sessionId, cwd: scratch(), replayFrom: { type: "start" } });
      expect(resumed?.result).toEqual({});
      const answered = d.lines.findIndex((l, i) => i >= at && l.body?.id === d.lastRequestId);
      expect(updates(at, answered, sessionId)).toEqual(live);
      const plain = d.lines.length;
      await d.request("session/resume", { sessionId, cwd: scratch() });
      expect(updates(plain, d.lines.length, sessionId)).toEqual([]);
      expect(errorOf(await d.request("session/resume", { sessionId, cwd: scratch(), replayFrom: { type: "_later" } }))).toBe(-32602);
    } finally {
      await d.close();
    }
  }, 30_000);
});

const errorOf = (answer: Record<string, unknown> | undefined): unknown => (answer?.error as { code?: unknown } | undefined)?.code;
