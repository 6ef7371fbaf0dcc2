// Soak: 200,000 request/answer cycles (half of them prompts that each call back into the client
// and stream an update before answering) and 1,000,000 notifications over one memoryPair
// connection, in windows of 256 in flight. Runs in a child process with --expose-gc so the heap
// can be measured after full collections: it must come back to within 2 MiB of where it was after
// the warm-up, and both sides must hold no pending calls, handlers, lanes, timers or listeners.
import { describe, expect, it } from "vitest";
import { fixture, runNode } from "./support.ts";

const MiB = 1024 * 1024;
const idle = { pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 };

describe("one connection under sustained load", () => {
  it("serves 200,000 request/answer cycles and 1,000,000 notifications, then holds no more heap or state than before", async () => {
    const run = await runNode(["--expose-gc", "--import", "tsx", fixture("soak.ts"), "200000", "1000000"], 100_000);
    expect(run.killed).toBe(false);
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as { cycles: number; notifications: number; heapDelta: number; agentStats: unknown; clientStats: unknown };
    expect(report.cycles).toBe(200_000);
    expect(report.notifications).toBe(1_000_000);
    expect(Math.abs(report.heapDelta)).toBeLessThan(2 * MiB);
    expect(report.agentStats).toEqual(idle);
    expect(report.clientStats).toEqual(idle);
  }, 120_000);
});
