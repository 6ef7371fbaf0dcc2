// Leniency repairs touch exactly the invalid location (DESIGN section 4, step 9;
// PITFALLS #22): the invalid item is dropped or the invalid field defaulted, and
// an enclosing object that the repair made valid reaches the handler intact.
import { describe, expect, it } from "vitest";
import type { InitializeRequest, NewSessionResponse, PromptRequest } from "../../src/index.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { connectPair, initializedPair } from "../support/pair.ts";

/** The `data.repairs` of every `repaired` diagnostic, in order. */
function repairsOf(diagnostics: readonly { kind: string; data?: unknown }[]): unknown[] {
  return diagnostics.filter((d) => d.kind === "repaired").flatMap((d) => (d.data as { repairs: unknown[] }).repairs);
}

describe("a repair inside an optional object", () => {
  it("keeps a prompt block's annotations when one audience item is unknown, dropping only that item", async () => {
    const seen: PromptRequest[] = [];
    const pair = await initializedPair(testAgent({ prompt: (p) => (seen.push(p), { stopReason: "end_turn" }) }).handler, testClient().handler);
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    const block = { type: "text", text: "x", annotations: { audience: ["user", "a_future_role"] } };
    await pair.client.agent.prompt({ sessionId, prompt: [block] } as unknown as PromptRequest);
    expect(seen[0]?.prompt).toEqual([{ type: "text", text: "x", annotations: { audience: ["user"] } }]);
    expect(repairsOf(pair.diagnostics.agent)).toEqual([{ path: "/prompt/0/annotations/audience/1", action: "dropped_item" }]);
  });

  it("keeps session/new's modes when one mode is invalid, dropping only that mode", async () => {
    const modes = {
      currentModeId: "code",
      availableModes: [
        { id: "code", name: "Code" },
        { id: "ask", name: 42 },
        { id: "plan", name: "Plan", description: "Think first" },
      ],
    };
    const agent = testAgent({ newSession: () => ({ sessionId: "sess-1", modes }) as unknown as NewSessionResponse });
    const pair = await initializedPair(agent.handler, testClient().handler);
    const answer = await pair.client.agent.newSession(params.newSession());
    expect(answer).toEqual({
      sessionId: "sess-1",
      modes: {
        currentModeId: "code",
        availableModes: [
          { id: "code", name: "Code" },
          { id: "plan", name: "Plan", description: "Think first" },
        ],
      },
    });
    expect(repairsOf(pair.diagnostics.client)).toEqual([{ path: "/modes/availableModes/1", action: "dropped_item" }]);
  });

  it("keeps clientCapabilities.session when one of its fields is invalid, so the agent still sees configOptions.boolean", async () => {
    const seen: InitializeRequest[] = [];
    const agent = testAgent({ initialize: (p) => (seen.push(p), { protocolVersion: 1, agentCapabilities: {} }) });
    const pair = connectPair(agent.handler, testClient().handler);
    const clientCapabilities = { session: { configOptions: { boolean: {} }, compaction: "not an object" } };
    await pair.client.agent.initialize({ protocolVersion: 1, clientCapabilities } as unknown as InitializeRequest);
    expect(seen[0]?.clientCapabilities?.session).toEqual({ configOptions: { boolean: {} } });
    expect(repairsOf(pair.diagnostics.agent)).toEqual([{ path: "/clientCapabilities/session/compaction", action: "removed" }]);
  });

  it("still repairs the enclosing field when the inner repair does not make it valid", async () => {
    const seen: PromptRequest[] = [];
    const pair = await initializedPair(testAgent({ prompt: (p) => (seen.push(p), { stopReason: "end_turn" }) }).handler, testClient().handler);
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    // `audience` is fine after the drop, but `annotations` is not an object at all in the second block.
    const blocks = [
      { type: "text", text: "a", annotations: { audience: ["user", 7] } },
      { type: "text", text: "b", annotations: "loud" },
    ];
    await pair.client.agent.prompt({ sessionId, prompt: blocks } as unknown as PromptRequest);
    expect(seen[0]?.prompt).toEqual([
      { type: "text", text: "a", annotations: { audience: ["user"] } },
      { type: "text", text: "b" },
    ]);
    expect(repairsOf(pair.diagnostics.agent)).toEqual([
      { path: "/prompt/0/annotations/audience/1", action: "dropped_item" },
      { path: "/prompt/1/annotations", action: "removed" },
    ]);
  });
});
