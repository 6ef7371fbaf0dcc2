// The example client sets a connection-wide request timeout, so an agent that goes silent after
// initialize fails the run with a timeout instead of hanging it.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runClient } from "../../examples/client.ts";

const hangingAgent = [process.execPath, fileURLToPath(new URL("../reliability/fixtures/broken-agent.mjs", import.meta.url)), "hang"];

describe("the example client's request timeout", () => {
  it("rejects the run when session/new gets no answer within requestTimeoutMs, and the agent is shut down", async () => {
    let transcript = "";
    // Long enough for the agent to start and answer initialize on a busy machine.
    const run = runClient({ agentCommand: hangingAgent, agentStderr: "ignore", requestTimeoutMs: 1500, prompts: ["hello"], output: { write: (text: string) => (transcript += text) } });
    await expect(run).rejects.toThrow('Request "session/new" timed out after 1500 ms');
    expect(transcript).toMatch(/^Connected to an unnamed agent \(protocol 1\)$/m);
    // Closing its stdin ends the hanging agent.
    expect(transcript.trimEnd().endsWith("Agent exited (code 0).")).toBe(true);
  });
});
