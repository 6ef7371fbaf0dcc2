// Registered extensions share the connection's lanes and cancellation (DESIGN §6, §7):
// notifications of one session are handled one after another in arrival order, even when
// validation is async; a prompt's answer comes after the extension notifications before it;
// a cancelled extension request answers -32800.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineExtension, type AgentConnection, type StandardSchemaV1 } from "../../src/index.ts";
import { deferred, until, within } from "../support/async.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { rpcError } from "../support/messages.ts";
import { initializedPair } from "../support/pair.ts";
import { progress } from "./fixtures.ts";

/** A Standard Schema that resolves later for even steps: async validation must not reorder a lane. */
const slowStep: StandardSchemaV1<{ sessionId: string; step: number }> = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate: (value) => {
      const v = value as { sessionId: string; step: number };
      return v.step % 2 === 0 ? new Promise((resolve) => setTimeout(() => resolve({ value: v }), 5)) : { value: v };
    },
  },
};
const step = defineExtension({ wire: "_example.com/step", params: slowStep });

describe("extension notifications of one session", () => {
  it("are handled one at a time in arrival order, with async validators and async handlers", async () => {
    const log: string[] = [];
    const handled = step.handle(async (p) => {
      log.push(`start ${p.sessionId}:${p.step}`);
      await new Promise((resolve) => setTimeout(resolve, p.step === 1 ? 10 : 1));
      log.push(`end ${p.sessionId}:${p.step}`);
    });
    const { agent } = await initializedPair(testAgent().handler, testClient().handler, {}, { client: { extensions: [handled] } });
    for (let i = 1; i <= 4; i++) await agent.notify(step, { sessionId: "a", step: i });
    await until(() => log.length === 8, "all four handled");
    expect(log).toEqual(["start a:1", "end a:1", "start a:2", "end a:2", "start a:3", "end a:3", "start a:4", "end a:4"]);
  });

  it("are all delivered before the answer of the prompt that sent them", async () => {
    let agentConn: AgentConnection | undefined;
    const agent = testAgent({
      prompt: async (p) => {
        for (let percent = 25; percent <= 100; percent += 25) await agentConn?.notify(progress, { sessionId: p.sessionId, percent });
        return { stopReason: "end_turn" };
      },
    });
    const delivered: number[] = [];
    const slowProgress = progress.handle(async (p) => {
      await new Promise((resolve) => setTimeout(resolve, 3));
      delivered.push(p.percent);
    });
    const pair = await initializedPair(agent.handler, testClient().handler, {}, { client: { extensions: [slowProgress] } });
    agentConn = pair.agent;
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    const seenAtAnswer = await pair.client.agent.prompt(params.prompt(sessionId)).then((answer) => ({ answer, delivered: [...delivered] }));
    expect(seenAtAnswer).toEqual({ answer: { stopReason: "end_turn" }, delivered: [25, 50, 75, 100] });
  });
});

describe("cancelling an extension request", () => {
  it("aborts the handler's signal and answers -32800", async () => {
    const wait = defineExtension({ wire: "_example.com/wait", params: z.object({}), result: z.object({}) });
    const started = deferred();
    const handled = wait.handle(
      (_, ctx) =>
        new Promise<Record<string, never>>((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
          started.resolve();
        }),
    );
    const { client } = await initializedPair(testAgent().handler, testClient().handler, {}, { agent: { extensions: [handled] } });
    const controller = new AbortController();
    const call = client.request(wait, {}, { signal: controller.signal });
    await within(started.promise, "handler started");
    controller.abort();
    const error = await rpcError(call);
    expect(error.code).toBe(-32800);
  });
});
