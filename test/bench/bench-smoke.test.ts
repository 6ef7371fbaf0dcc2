import { describe, expect, it } from "vitest";
import { runOk } from "../support/process.ts";

interface Measurement {
  case: string;
  peer: string;
  value: number;
  rounds: number[];
}

// Runs the cheapest timed figure in quick mode so the benchmark code keeps working.
// Speed is never asserted: only the shape of the report and the peers' verified answers.
describe("the ingest benchmark in quick mode", () => {
  it("prints one JSON report with a positive rate for each peer and verified answers", async () => {
    const { stdout } = await runOk(process.execPath, ["--expose-gc", "--import", "tsx", "bench/ingest.ts", "--quick"], { timeoutMs: 60_000 });
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0] as string) as { figure: string; unit: string; better: string; quick: boolean; results: Measurement[]; verified: Record<string, boolean> };
    expect(report).toMatchObject({ figure: "ingest", unit: "msgs/s", better: "higher", quick: true });
    const cells = report.results.map((r) => `${r.case} / ${r.peer}`).sort();
    expect(cells).toEqual(
      [
        "invalid session/prompt (-32602) / floor",
        "invalid session/prompt (-32602) / ours",
        "invalid session/prompt (-32602) / sdk",
        "session/prompt (1 KB text) / floor",
        "session/prompt (1 KB text) / ours",
        "session/prompt (1 KB text) / sdk",
        "session/update chunk (200 chars) / floor",
        "session/update chunk (200 chars) / ours",
        "session/update chunk (200 chars) / sdk",
        "ratio to floor (same round), invalid session/prompt (-32602) / ours",
        "ratio to floor (same round), invalid session/prompt (-32602) / sdk",
        "ratio to floor (same round), session/prompt (1 KB text) / ours",
        "ratio to floor (same round), session/prompt (1 KB text) / sdk",
        "ratio to floor (same round), session/update chunk (200 chars) / ours",
        "ratio to floor (same round), session/update chunk (200 chars) / sdk",
      ].sort(),
    );
    for (const r of report.results) {
      expect(r.value).toBeGreaterThan(0);
      expect(r.rounds).toHaveLength(1);
    }
    // A same-round ratio is the peer's value over the floor's in that round.
    const value = (c: string, peer: string) => report.results.find((r) => r.case === c && r.peer === peer)?.rounds[0] as number;
    for (const c of ["invalid session/prompt (-32602)", "session/prompt (1 KB text)", "session/update chunk (200 chars)"]) {
      for (const peer of ["ours", "sdk"]) expect(value(`ratio to floor (same round), ${c}`, peer)).toBeCloseTo(value(c, peer) / value(c, "floor"), 9);
    }
    expect(report.verified).toEqual({
      "floor prompt": true,
      "sdk prompt": true,
      "ours prompt": true,
      "floor invalid": true,
      "sdk invalid": true,
      "ours invalid": true,
      "floor update": true,
      "sdk update": true,
      "ours update": true,
    });
  });
});
