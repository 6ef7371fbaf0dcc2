/**
 * `mock-agent --script FILE`: the scenario format is validated with errors
 * that name the place, the agent advertises exactly the scenario's needs,
 * and prompt N of a session replays turn N whatever its text.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../tools/mock-agent/script.ts";
import { mockAgent, mockCwd } from "./mock-agent-support.ts";
import { sdkV1Client, spawnedStream } from "./mock-agent-sdk.ts";
import { runCommand, scratch } from "./support.ts";

describe("parseScenario", () => {
  it("parses turns given as text or as lines, and advertises only the needs", () => {
    const s = parseScenario(JSON.stringify({ needs: ["list", "modes"], turns: ["#updates plan", ["hello", "#sleep 5"]] }));
    expect(s.advertise).toEqual({ loadSession: false, list: true, close: false, modes: true, configOptions: false });
    expect(s.turns).toEqual([
      [{ op: "updates", kind: "plan", count: 1 }],
      [
        { op: "echo", text: "hello" },
        { op: "sleep", ms: 5 },
      ],
    ]);
    expect(s.process).toEqual([]);
  });

  it('reads the process behaviours of "process"', () => {
    expect(parseScenario(JSON.stringify({ process: ["linger", "ignore-term", "grandchild"], turns: ["ok"] })).process).toEqual(["linger", "ignore-term", "grandchild"]);
  });

  it.each([
    ["{", /^s.json: not JSON: /],
    ["[]", /^s.json: a scenario is a JSON object with "turns"/],
    ['{"turns":[]}', /^s.json: "turns" must be a non-empty array/],
    ['{"turns":["ok"],"extra":1}', /^s.json: unknown key "extra"/],
    ['{"turns":[3]}', /^s.json: turns\[0\] must be a string or an array of strings$/],
    ['{"turns":["ok",["fine","#sleep x"]]}', /^s.json: turns\[1\] line 2: #sleep MS must be an integer from 0 to 60000$/],
    ['{"turns":["#nope"]}', /^s.json: turns\[0\] line 1: unknown directive "#nope"/],
    ['{"turns":["ok"],"needs":["fs"]}', /^s.json: unknown need "fs" \(known: loadSession, list, close, modes, configOptions\)$/],
    ['{"turns":["ok"],"needs":"list"}', /^s.json: "needs" must be an array/],
    ['{"turns":["ok"],"process":["daemonize"]}', /^s.json: "process" must be an array of ignore-term, linger, grandchild$/],
  ])("rejects %s", (text, message) => {
    expect(() => parseScenario(text, "s.json")).toThrow(message);
  });
});

describe("acp-router mock-agent --script", () => {
  it("exits 2 with the scenario's error on stderr, before serving", async () => {
    const file = join(scratch(), "bad.json");
    writeFileSync(file, '{"turns":["#big 0"]}');
    const run = await runCommand(mockAgent("--script", file), "", 20_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`acp-router mock-agent: ${file}: turns[0] line 1: #big BYTES must be an integer from 1 to 16777216\n`);
    expect(run.stdout.length).toBe(0);
  });

  it("advertises the needs, replays turn N on prompt N, then reads prompts again", async () => {
    const file = join(scratch(), "scenario.json");
    writeFileSync(file, JSON.stringify({ needs: ["list"], turns: ["#updates plan", ["scripted", "#sleep 5"]] }));
    const client = sdkV1Client(spawnedStream(mockAgent("--script", file)));
    try {
      const init = await client.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      expect(init.agentCapabilities).toMatchObject({ loadSession: false, sessionCapabilities: { list: {} } });
      expect(init.agentCapabilities?.sessionCapabilities?.close).toBeUndefined();
      const created = await client.agent.request("session/new", { cwd: mockCwd(), mcpServers: [] });
      expect(created.modes ?? undefined).toBeUndefined();
      expect(created.configOptions ?? undefined).toBeUndefined();
      const prompt = async (text: string) => {
        const from = client.updates.length;
        const { stopReason } = await client.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text }] });
        await new Promise((r) => setImmediate(r));
        return {
          stopReason,
          kinds: client.updates.slice(from).map((u) => u.update.sessionUpdate),
          text: client.updates
            .slice(from)
            .flatMap((u) => (u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? [u.update.content.text] : []))
            .join(""),
        };
      };
      expect(await prompt("ignored one")).toEqual({ stopReason: "end_turn", kinds: ["plan"], text: "" });
      expect(await prompt("ignored two")).toEqual({ stopReason: "end_turn", kinds: ["agent_thought_chunk", "agent_message_chunk"], text: "scripted\n" });
      expect((await prompt("my own text")).text).toBe("my own text\n");
      expect((await client.agent.request("session/list", {})).sessions.map((s) => s.sessionId)).toEqual([created.sessionId]);
      await expect(client.agent.request("session/set_mode", { sessionId: created.sessionId, modeId: "code" })).rejects.toMatchObject({ code: -32601 });
    } finally {
      expect(await client.close()).toBe(0);
    }
  });
});
