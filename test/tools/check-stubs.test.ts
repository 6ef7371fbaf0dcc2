// `acp-router check` against scripted stub agents (test/fixtures/check-agent.mjs), one behaviour each:
// authentication, a prompt error, a slow start, an ignored cancel, an answered notification, death
// mid-run, an unanswered id-only message, an agent lingering behind `sh -c`, and `--help`.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { V1_CHECKLIST } from "../../tools/check/checklist.ts";
import type { CheckReport } from "../../tools/check/main.ts";
import { INVALID_REQUEST } from "../../tools/check/probes-wire.ts";
import { NO_KEYWORD } from "../../tools/check/score.ts";
import { countLine } from "../../tools/check/main.ts";
import { bundledCli, fixture, repoRoot, runCommand, scratch, STUB_WINDOWS, tsNode } from "./support.ts";

const stub = fileURLToPath(new URL("../fixtures/check-agent.mjs", import.meta.url));
const SESSION_ROWS = ["ACP-SESSION-001", "ACP-LIST-103", "ACP-PROMPT-001", "ACP-PROMPT-101", "ACP-SESSION-101", "ACP-PROMPT-003", "ACP-CANCEL-001", "ACP-CANCEL-102", "ACP-CANCEL-105"];
const WIRE_ROWS = ["ACP-INFO-PARSE-001", "ACP-INFO-INVALIDREQ-001", "ACP-JSONRPC-004", "ACP-EXT-001", "ACP-JSONRPC-001", "ACP-JSONRPC-003", "ACP-EXT-201", "ACP-JSONRPC-101", "ACP-TRANSPORT-203", "ACP-JSONRPC-005", "ACP-SHUTDOWN-001"];

/** Runs check (killed after 50 s) with `env`, and parses its JSON scorecard. */
async function check(args: readonly string[], agent: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const [file, ...rest] = bundledCli("check", "--json", ...STUB_WINDOWS, "--timeout", "2", "--cwd", scratch(), ...args, "--", ...agent) as [string, ...string[]];
  const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(file, rest, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
  const card = JSON.parse(run.stdout) as CheckReport;
  const row = (id: string) => card.rows.find((r) => r.id === id);
  const failed = card.rows.filter((r) => r.outcome === "fail").map((r) => r.id);
  return { code: run.code, card, row, failed };
}
const mode = (m: string, arg?: string) => [process.execPath, stub, m, ...(arg === undefined ? [] : [arg])];

describe("check against scripted stub agents", () => {
  it("auth required, methods in initialize: session rows n/a naming the methods, every session-independent probe still runs, every row listed", async () => {
    const { code, card, row, failed } = await check([], mode("auth-init"));
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(card.rows.map((r) => r.id)).toEqual(V1_CHECKLIST.entries.map((e) => e.id));
    for (const id of SESSION_ROWS) expect(row(id), id).toMatchObject({ outcome: "n/a", evidence: "authentication required (methods: login (agent)); --auth METHOD_ID authenticates first" });
    for (const id of WIRE_ROWS) expect(row(id)?.outcome, id).toBe("pass");
    expect(row("ACP-AUTH-005")).toMatchObject({ outcome: "n/a", evidence: "the agent lists authMethods in initialize" });
  }, 60_000);

  it("--auth login authenticates first: the session rows are judged", async () => {
    const { code, row, failed } = await check(["--auth", "login"], mode("auth-init"));
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    for (const id of ["ACP-SESSION-001", "ACP-PROMPT-001", "ACP-CANCEL-001", "ACP-CANCEL-105"]) expect(row(id)?.outcome, id).toBe("pass");
  }, 60_000);

  it("auth required with the methods only in the error's data: named from there; ACP-AUTH-005 (an inference, no keyword) is a note, not a fail", async () => {
    const { code, card, row, failed } = await check([], mode("auth-data"));
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(row("ACP-SESSION-001")?.evidence).toBe("authentication required (methods: oauth (agent)); --auth METHOD_ID authenticates first");
    const seen = 'session/new was answered error -32000 "Authentication required" but initialize listed no authMethods (the error\'s data lists oauth (agent))';
    expect(row("ACP-AUTH-005")).toEqual({ id: "ACP-AUTH-005", tier: "none", outcome: "n/a", evidence: `${NO_KEYWORD}; noted: ${seen}` });
    expect(card.notes).toContain(`ACP-AUTH-005 (no normative keyword) noted: ${seen}`);
  }, 60_000);

  it("--auth with an env_var method: authenticates when the variable is set, says which one is missing otherwise", async () => {
    const withKey = await check(["--auth", "stub-key"], mode("env-auth"), { ...process.env, STUB_API_KEY: "k" });
    expect({ code: withKey.code, failed: withKey.failed, session: withKey.row("ACP-SESSION-001")?.outcome }).toEqual({ code: 0, failed: [], session: "pass" });
    expect(withKey.card.notes).toContain("authenticated with stub-key (env_var)");
    const env = { ...process.env };
    delete env.STUB_API_KEY;
    const without = await check(["--auth", "stub-key"], mode("env-auth"), env);
    expect(without.row("ACP-SESSION-001")).toMatchObject({ outcome: "n/a", evidence: 'authenticate with stub-key failed: error -32000 "Authentication required: STUB_API_KEY is not set"' });
    expect(without.card.notes).toContain("--auth stub-key: STUB_API_KEY not set in check's environment, which the agent inherits");
  }, 60_000);

  it("an error answer to a prompt: prompt rows n/a with the error; framing and serving still pass", async () => {
    const { code, row, failed } = await check([], mode("prompt-error"));
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    for (const id of ["ACP-PROMPT-001", "ACP-PROMPT-101", "ACP-SESSION-101"]) expect(row(id), id).toMatchObject({ outcome: "n/a", evidence: 'a text prompt was answered error -32000 "model unreachable"' });
    expect(row("ACP-TRANSPORT-203")?.outcome).toBe("pass");
    expect(row("ACP-JSONRPC-005")?.outcome).toBe("pass");
  }, 60_000);

  it("a slow start: past --timeout it passes with the latency noted (a late answer is no violation); a longer --timeout passes plainly", async () => {
    const short = await check(["--timeout", "1"], mode("slow-start", "1800"));
    expect(short.row("ACP-INIT-001")?.outcome).toBe("pass");
    expect(short.row("ACP-INIT-001")?.evidence).toMatch(/^no answer within 1 s; answered after \d+(\.\d)? s \(a slow start: --timeout \d+ waits for it\)$/);
    expect(short.card.notes.some((n) => n.startsWith("late answers (after --timeout 1 s; not violations): initialize"))).toBe(true);
    const long = await check(["--timeout", "6"], mode("slow-start", "1800"));
    expect({ init: long.row("ACP-INIT-001")?.outcome, failed: long.failed }).toEqual({ init: "pass", failed: [] });
  }, 60_000);

  it("an ignored session/cancel answered end_turn later is a MUST fail, judged on a turn shown running", async () => {
    const { code, row } = await check([], mode("ignore-cancel"));
    expect(code).toBe(1);
    expect(row("ACP-CANCEL-001")?.outcome).toBe("fail");
    expect(row("ACP-CANCEL-001")?.evidence).toMatch(/^a turn shown running \(a session\/update arrived\) was cancelled with session\/cancel and answered stopReason "end_turn" \d+(\.\d)? s later: \{"jsonrpc":"2\.0","id":\d+,"result":\{"stopReason":"end_turn"\}\}$/);
  }, 60_000);

  it("a turn answered in the same write as its first update is too fast to judge: the cancel rows are n/a, not a fail", async () => {
    const { code, row, failed } = await check([], mode("instant-turn"));
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    for (const id of ["ACP-CANCEL-001", "ACP-CANCEL-002", "ACP-CANCEL-102"]) {
      expect(row(id)?.outcome, id).toBe("n/a");
      expect(row(id)?.evidence, id).toMatch(/^the turn was answered \(.*"stopReason":"end_turn".*\) before the cancel could be sent: too fast to judge$/);
    }
  }, 60_000);

  it("a notification answered: ACP-JSONRPC-003 and ACP-EXT-201 fail on one observation, shown once on the MUST NOT row (which names the other) and counted once", async () => {
    const { row, card } = await check([], mode("answer-notes"));
    for (const id of ["ACP-JSONRPC-003", "ACP-EXT-201"]) expect(row(id)?.outcome, id).toBe("fail");
    expect(row("ACP-JSONRPC-003")?.evidence).toContain('the notification _acp-router.check/note was answered: {"jsonrpc":"2.0","id":null,"error":{"code":-32601');
    expect(row("ACP-JSONRPC-003")?.evidence).toMatch(/The same fact decides ACP-EXT-201 \(counted once, here\)$/);
    expect(row("ACP-EXT-201")).toMatchObject({ sameAs: "ACP-JSONRPC-003", evidence: "the same observation as ACP-JSONRPC-003, which shows the evidence (counted once, there)" });
    // The fail count counts facts: the linked row is counted with the one that shows it.
    const fails = card.rows.filter((r) => r.outcome === "fail");
    expect(countLine(card.rows)).toContain(`, ${fails.filter((r) => r.sameAs === undefined).length} fail, `);
    expect(fails.filter((r) => r.sameAs !== undefined).map((r) => r.id)).toContain("ACP-EXT-201");
  }, 60_000);

  it("an agent that dies mid-run is reported once, with the probe it died in; nothing after it is charged as unanswered", async () => {
    const { card, row } = await check([], mode("die-on-prompt"));
    expect(card.notes.filter((n) => n.includes("exited"))).toEqual(['the agent exited (code 3) during the "array params" probe at ' + /\d+(\.\d)? s/.exec(card.notes.find((n) => n.includes("exited")) ?? "")![0] + "; the probes after it did not run"]);
    expect(card.rows.some((r) => r.evidence?.includes("no answer"))).toBe(false);
    for (const id of ["ACP-TRANSPORT-203", "ACP-SESSION-001", "ACP-PROMPT-001"]) expect(row(id), id).toMatchObject({ outcome: "not run", evidence: 'the agent exited (code 3) during the "array params" probe' });
    expect(row("ACP-INFO-PARSE-001")?.outcome).toBe("pass");
  }, 60_000);

  it("an id-only message left unanswered is noted, never charged: it is response-shaped, and JSON-RPC asks no answer to it", async () => {
    const { code, card, row, failed } = await check([], mode("silent-id-only"));
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(row("ACP-INFO-INVALIDREQ-001")?.outcome).toBe("pass");
    expect(card.notes).toContain('an id-only message {"jsonrpc":"2.0","id":77} (no requirement: it is response-shaped, and JSON-RPC asks no answer to it) was not answered');
  }, 60_000);

  it("an invalid Request object left unanswered is a SHOULD fail of ACP-INFO-INVALIDREQ-001 quoting what check sent, and nothing else", async () => {
    const { code, row, failed } = await check([], mode("silent-invalid"));
    expect({ code, failed }).toEqual({ code: 0, failed: ["ACP-INFO-INVALIDREQ-001"] });
    expect(row("ACP-INFO-INVALIDREQ-001")?.evidence).toBe(`check sent ${INVALID_REQUEST} (JSON-RPC 2.0 §7's example of an invalid Request object); no answer came, and the request check sent after it was answered`);
  }, 60_000);

  it("an id beyond 2^53 answered with the rounded id is an interoperability finding, never a fail (exit 0); --strict-ids makes it a MUST fail of ACP-JSONRPC-001 (exit 1); the stub's refusal with id null is described as acp-router's policy", async () => {
    const { code, row, failed, card } = await check([], mode("round-big-id"));
    expect({ code, failed, id: row("ACP-JSONRPC-001")?.outcome }).toEqual({ code: 0, failed: [], id: "pass" });
    const section = card.sections?.find((x) => x.id === "interoperability");
    expect(section?.about).toContain("RFC 8259 §6");
    expect(section?.about).toContain('"format": "int64"');
    expect(section?.about).toContain("acp-router itself refuses a numeric id it cannot hold exactly with -32600 and id null; that is acp-router's policy, not the spec's");
    expect(section?.findings.map((f) => [f.id, f.outcome])).toEqual([
      ["id 9007199254740993", "answered with id 9007199254740992"],
      ["id -9007199254740993", "answered with id -9007199254740992"],
    ]);
    expect(section?.findings[0]?.evidence).toBe('check sent {"jsonrpc":"2.0","id":9007199254740993,"method":"_acp-router.check/id","params":{}}; the agent answered {"jsonrpc":"2.0","id":9007199254740992,"error":{"code":-32601,"message":"Method not found: _acp-router.check/id"}}');
    const strict = await check(["--strict-ids"], mode("round-big-id"));
    expect({ code: strict.code, failed: strict.failed }).toEqual({ code: 1, failed: ["ACP-JSONRPC-001"] });
    expect(strict.row("ACP-JSONRPC-001")?.evidence).toMatch(/^--strict-ids \(the schema's int64 annotation read as part of the MUST\): check sent .*9007199254740993.*; the agent answered .*9007199254740992.*: answered with id 9007199254740992, not the same digits/);
    const refused = await check([], mode(""));
    expect(refused.row("ACP-JSONRPC-001")?.outcome).toBe("pass");
    expect(refused.card.sections?.[0]?.findings[0]?.outcome).toBe("refused with an error and id null (acp-router's own policy for an id it cannot hold; the spec names none)");
  }, 90_000);

  it("an agent lingering behind sh -c after stdin closes: noted (the lifecycle diagram has no keyword), and no process of its group is left", async () => {
    const file = join(scratch(), "pid");
    const { code, row, failed } = await check([], ["sh", "-c", `"${process.execPath}" "${stub}" stubborn "${file}"; true`]);
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(row("ACP-SHUTDOWN-001")).toMatchObject({ tier: "none", outcome: "n/a", evidence: `${NO_KEYWORD}; noted: did not exit within 1 s of stdin closing; terminated (signalled as a process group)` });
    const [pid, pgid] = readFileSync(file, "utf8").trim().split(" ");
    // Live (not zombie) processes of the agent's group; SIGKILL is delivered asynchronously, so look for up to 2 s.
    const left = () =>
      execFileSync("ps", ["-e", "-o", "pid=,pgid=,stat="], { encoding: "utf8" })
        .split("\n")
        .map((l) => l.trim().split(/\s+/))
        .filter(([p, g, stat]) => (g === pgid || p === pid) && !stat?.startsWith("Z"));
    for (let i = 0; i < 20 && left().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(left()).toEqual([]);
  }, 60_000);

  it("a turn left pending when stdin closes: answered -32800 passes ACP-CANCEL-109; an agent exiting without an answer fails it (a SHOULD), quoting what check sent", async () => {
    const good = await check([], mode(""));
    expect(good.row("ACP-CANCEL-109")?.outcome).toBe("pass");
    const { code, row, failed } = await check([], mode("exit-mid-turn"));
    expect({ code, failed }).toEqual({ code: 0, failed: ["ACP-CANCEL-109"] });
    expect(row("ACP-CANCEL-109")?.evidence).toMatch(/^check sent session\/prompt "acp-router-check-shutdown-turn" \(a session\/update showed it running: .*\) and closed the agent's stdin with it unanswered; the agent exited \(code 0\) without answering it\. /);
  }, 90_000);

  it("a declared stdio MCP server: started by the agent passes ACP-MCP-104 (noting what it received); never started though the turn used a tool fails it", async () => {
    const good = await check([], mode(""));
    expect(good.row("ACP-MCP-104")?.outcome).toBe("pass");
    expect(good.card.notes).toContain("ACP-MCP-104: the declared stdio MCP server was started; it received initialize");
    const { code, row, failed } = await check([], mode("ignore-mcp"));
    expect({ code, failed }).toEqual({ code: 0, failed: ["ACP-MCP-104"] });
    expect(row("ACP-MCP-104")?.evidence).toMatch(/^check sent session\/new with mcpServers \[\{"name":"acp-router-check".*the turn in that session used a tool \(.*"sessionUpdate":"tool_call".*yet the server's command was never started/);
  }, 90_000);

  it("an update for a session nothing introduced is noted, not charged to ACP-SESSION-001 (which says session/new answers with a session id)", async () => {
    const { code, card, row, failed } = await check([], mode("ghost-update"));
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    expect(row("ACP-SESSION-001")?.outcome).toBe("pass");
    expect(card.notes.some((n) => n.startsWith("an update for a session check never saw introduced (no requirement with a keyword forbids it; noted): ") && n.includes('"ghost"'))).toBe(true);
  }, 60_000);

  it("--help prints the usage on stdout and exits 0", async () => {
    const run = await runCommand(bundledCli("check", "--help"));
    expect(run.code).toBe(0);
    expect(run.stdout.toString("utf8")).toMatch(/^usage: acp-router check \[options\] -- <agent command\.\.\.>/);
    expect(run.stdout.toString("utf8")).toContain("--timeout SECONDS how long to wait for each answer (default: 30)");
  }, 30_000);
});
