// bench/mcp.ts (figure 14) in quick mode: both paths answer the tool call as the server does, and
// the figure line has both peers (values are not asserted: tests never judge speed).
import { describe, expect, it } from "vitest";
import { runOk } from "../support/process.ts";

describe("the MCP-over-ACP benchmark in quick mode", () => {
  it("verifies the tool call's answer on both paths and reports one median per path", async () => {
    const { stdout } = await runOk(process.execPath, ["--expose-gc", "--import", "tsx", "bench/mcp.ts", "--quick"], { timeoutMs: 60_000 });
    const report = JSON.parse(stdout.trim().split("\n").at(-1) as string) as { figure: string; verified: Record<string, boolean>; results: { case: string; peer: string; value: number }[] };
    expect(report.figure).toBe("mcp");
    expect(report.verified).toEqual({ "MCP over ACP (acp-router/mcp)": true, "MCP over loopback HTTP (MCP SDK)": true });
    expect(report.results.map((r) => [r.case, r.peer, r.value > 0])).toEqual([
      ["tools/call echo p50 (µs)", "MCP over ACP (acp-router/mcp)", true],
      ["tools/call echo p50 (µs)", "MCP over loopback HTTP (MCP SDK)", true],
    ]);
  });
});
