// `acp-router inspect replay`: a recording of the example client's tour replayed against the same agent and against changed ones.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ReplayOutcome } from "../../tools/inspect/replay-run.ts";
import { acpRouter, exampleAgent, exampleClient, fixture, runCommand, scratch, tsNode } from "./support.ts";

type Report = ReplayOutcome & { readonly same: boolean };

describe("acp-router inspect replay <trace> -- <agent>", () => {
  const dir = scratch();
  const trace = join(dir, "tour.ndjson");
  /** The id of the first client request for `method` in the recording. */
  const idOf = (method: string) => {
    for (const line of readFileSync(trace, "utf8").split("\n")) {
      const e = line === "" ? undefined : (JSON.parse(line) as { from?: string; msg?: { id?: unknown; method?: unknown } });
      if (e?.from === "client" && e.msg?.method === method) return e.msg.id;
    }
    throw new Error(`no ${method} in the recording`);
  };
  const replay = async (agent: readonly string[], ...flags: string[]) => {
    const run = await runCommand(acpRouter("inspect", "replay", trace, "--json", ...flags, "--", ...agent), "", 60_000);
    return { code: run.code, report: JSON.parse(run.stdout.toString("utf8")) as Report, stderr: run.stderr };
  };
  // The tour over ACP v1, which inspect's tables cover (the example client would otherwise negotiate v2).
  const v1 = ["--protocol", "1"];
  const altered = (mode: string) => tsNode(fixture("altered-agent.ts"), mode, "--", ...tsNode(exampleAgent));

  beforeAll(async () => {
    const agent = acpRouter("inspect", "--summary", join(dir, "summary.txt"), "--record", trace, "--", ...tsNode(exampleAgent))
      .map((w) => JSON.stringify(w))
      .join(" ");
    const run = await runCommand(tsNode(exampleClient, "--tour", ...v1, "--agent", agent), "", 60_000);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  }, 70_000);

  it("finds no difference replaying the tour against the same agent (new session ids, the client's answers to the agent's requests re-addressed), exit 0", async () => {
    const { code, report } = await replay(tsNode(exampleAgent));
    expect({ code, differences: report.differences, same: report.same, exit: report.exit }).toEqual({ code: 0, differences: [], same: true, exit: 0 });
    expect(report.sent.requests).toBeGreaterThanOrEqual(8);
    expect(report.compared.answers).toBe(report.sent.requests);
    expect(report.sent.answers).toBeGreaterThan(0);
    expect(report.compared.agentRequests).toBe(report.sent.answers);
  }, 70_000);

  it("reports each change of a deliberately changed agent once, and exits 1", async () => {
    const [stop, error, drop, same] = await Promise.all([replay(altered("stop-reason")), replay(altered("error")), replay(altered("drop-field")), replay(altered("none"))]);
    const at = (method: string) => `${method} #${JSON.stringify(idOf(method))}`;
    expect({ code: stop.code, differences: stop.report.differences }).toEqual({ code: 1, differences: [{ kind: "answer", at: at("session/prompt"), path: "result.stopReason", recorded: '"end_turn"', replayed: '"max_tokens"' }] });
    expect({ code: error.code, differences: error.report.differences }).toEqual({ code: 1, differences: [{ kind: "answer", at: at("session/set_mode"), recorded: "a result", replayed: "error -32603" }] });
    expect({ code: drop.code, differences: drop.report.differences }).toEqual({ code: 1, differences: [{ kind: "answer", at: at("session/new"), path: "result.modes", recorded: "an object", replayed: "absent" }] });
    expect({ code: same.code, differences: same.report.differences }).toEqual({ code: 0, differences: [] });
  }, 120_000);

  it("prints the differences as text without --json", async () => {
    const run = await runCommand(acpRouter("inspect", "replay", trace, "--", ...altered("stop-reason")), "", 60_000);
    const text = run.stdout.toString("utf8");
    expect(run.code).toBe(1);
    expect(text).toContain("1 difference:");
    expect(text).toContain(`answer        ${"session/prompt"} #${JSON.stringify(idOf("session/prompt"))} result.stopReason: recorded "end_turn", replayed "max_tokens"`);
  }, 70_000);

  it("reports rule breaches the recording did not have, and an agent that stops answering", async () => {
    const { code, report } = await replay(tsNode(fixture("scripted-agent.ts"), "update-after-answer"), "--timeout", "1000");
    expect(code).toBe(1);
    const kinds = new Set(report.differences.map((d) => d.kind));
    expect(kinds.has("rule")).toBe(true);
    expect(kinds.has("missing")).toBe(true);
    expect(report.differences.find((d) => d.kind === "rule" && d.at.startsWith("update-after-turn"))).toMatchObject({ recorded: "0×" });
  }, 70_000);

  it("rejects a missing recording with exit 2 and a message on stderr, nothing on stdout", async () => {
    const run = await runCommand(acpRouter("inspect", "replay", join(dir, "absent.ndjson"), "--", ...tsNode(exampleAgent)));
    expect({ code: run.code, stdout: run.stdout.toString("utf8") }).toEqual({ code: 2, stdout: "" });
    expect(run.stderr).toMatch(/cannot read .*absent\.ndjson/);
  });

  it("exits 127 with a message on stderr when the agent cannot be started", async () => {
    const run = await runCommand(acpRouter("inspect", "replay", trace, "--", join(dir, "no-such-agent")));
    expect({ code: run.code, stdout: run.stdout.toString("utf8") }).toEqual({ code: 127, stdout: "" });
    expect(run.stderr).toMatch(/cannot start .*no-such-agent.*ENOENT/);
  });
});
