// Unknown enum values in results pass through with a diagnostic in repair mode and
// are rejected only in strict mode (issue 21, item 6; PITFALLS #24): a newer agent's
// stopReason reaches the caller.
import { describe, expect, it } from "vitest";
import type { PromptResponse, RequestPermissionResponse } from "../../src/index.ts";
import { check } from "../../src/validation/check.ts";
import { leniency } from "../../src/generated/leniency.ts";
import { validatePromptResponse, validateRequestPermissionRequest, validateSessionNotification } from "../../src/generated/validators.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { initializedPair } from "../support/pair.ts";

async function promptAnswering(result: unknown, mode: "repair" | "strict") {
  const agent = testAgent({ prompt: () => result as PromptResponse });
  const pair = await initializedPair(agent.handler, testClient().handler, {}, { client: { leniency: mode } });
  const { sessionId } = await pair.client.agent.newSession(params.newSession());
  const answer = await pair.client.agent.prompt(params.prompt(sessionId)).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return { answer, diagnostics: pair.diagnostics.client };
}

describe("an unknown enum value in a result", () => {
  it("reaches the caller unchanged with a diagnostic: a newer agent's stopReason", async () => {
    const { answer, diagnostics } = await promptAnswering({ stopReason: "paused_for_review", _meta: { by: "agent-2.0" } }, "repair");
    expect(answer).toEqual({ ok: true, value: { stopReason: "paused_for_review", _meta: { by: "agent-2.0" } } });
    expect(diagnostics.filter((d) => d.kind === "repaired")).toEqual([{ kind: "repaired", message: 'repaired the result of "session/prompt"', data: { repairs: [{ path: "/stopReason", action: "kept_unknown" }] } }]);
  });

  it('is rejected in "strict" mode, naming the location', async () => {
    const { answer } = await promptAnswering({ stopReason: "paused_for_review" }, "strict");
    expect(answer.ok).toBe(false);
    expect(answer.ok === false && answer.error).toMatchObject({ code: -32603, message: 'Invalid result for "session/prompt" from the agent', data: { errors: [{ path: "/stopReason" }] } });
  });

  it("keeps an unknown union tag in a result (a newer client's permission outcome) and still repairs the rest", async () => {
    let seen: unknown;
    const agent = testAgent({
      prompt: async (p, ctx) => {
        seen = await ctx.peer.requestPermission(params.permission(p.sessionId));
        return { stopReason: "end_turn" };
      },
    });
    const client = testClient({ requestPermission: () => ({ outcome: { outcome: "deferred", until: "later" }, _meta: 5 }) as unknown as RequestPermissionResponse });
    const pair = await initializedPair(agent.handler, client.handler);
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    await pair.client.agent.prompt(params.prompt(sessionId));
    expect(seen).toEqual({ outcome: { outcome: "deferred", until: "later" } });
    expect(pair.diagnostics.agent.filter((d) => d.kind === "repaired").map((d) => d.data)).toEqual([
      {
        repairs: [
          { path: "/_meta", action: "removed" },
          { path: "/outcome", action: "kept_unknown" },
        ],
      },
    ]);
  });

  it("is not kept where the value is not a string, or where other errors stand at the same place", () => {
    for (const bad of [{ stopReason: 7 }, { stopReason: { kind: "end_turn" } }, { stopReason: null }, {}]) {
      const outcome = check(validatePromptResponse, structuredClone(bad), "PromptResponse", leniency, "repair", "keep");
      expect(outcome?.ok, JSON.stringify(bad)).toBe(false);
    }
  });

  it("pays nothing on the valid path: a valid result is accepted by the one validator call, untouched", () => {
    const value = { stopReason: "end_turn" };
    expect(check(validatePromptResponse, value, "PromptResponse", leniency, "repair", "keep")).toBeUndefined();
  });
});

describe("an unknown enum value in params (not a result)", () => {
  it("is repaired where the schema says so (a tool call's kind and status are removed) and otherwise rejected", () => {
    const update = { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "c", title: "t", kind: "teleport", status: "paused" } };
    expect(check(validateSessionNotification, update, "SessionNotification", leniency, "repair")).toEqual({
      ok: true,
      repairs: [
        { path: "/update/kind", action: "removed" },
        { path: "/update/status", action: "removed" },
      ],
    });
    const permission = { ...params.permission("s"), options: [{ optionId: "a", name: "A", kind: "allow_sometimes" }] };
    expect(check(validateRequestPermissionRequest, permission, "RequestPermissionRequest", leniency, "repair")).toMatchObject({ ok: false, errors: [{ path: "/options/0/kind" }] });
  });
});
