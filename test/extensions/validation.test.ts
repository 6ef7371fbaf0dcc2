// Registered extensions are validated like table rows: invalid params answer -32602 with
// one entry per location, an invalid result rejects the call, an invalid notification is
// dropped with a diagnostic.
import { describe, expect, it } from "vitest";
import { testAgent, testClient } from "../support/handlers.ts";
import { notification, request, rpcError } from "../support/messages.ts";
import { initializedPair } from "../support/pair.ts";
import { rawAgent } from "../support/raw-peer.ts";
import { echo, progress, sum } from "./fixtures.ts";

describe("invalid params of a registered extension request", () => {
  it('are answered -32602 "Invalid params" with data.errors per location, and the handler does not run', async () => {
    const calls: unknown[] = [];
    const d = rawAgent(testAgent().handler, { connection: { extensions: [echo.handle((p) => (calls.push(p), { text: p.text }))] } });
    await d.initialize();
    d.send(request(1, "_example.com/echo", { text: 7, times: 0 }));
    expect(await d.next()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32602,
        message: "Invalid params",
        data: {
          errors: [
            { path: "/text", message: "Invalid input: expected string, received number" },
            { path: "/times", message: "Too small: expected number to be >=1" },
          ],
        },
      },
    });
    expect(calls).toEqual([]);
  });

  it("report a missing params object at its own location", async () => {
    const d = rawAgent(testAgent().handler, { connection: { extensions: [echo.handle((p) => ({ text: p.text }))] } });
    await d.initialize();
    d.send(request(2, "_example.com/echo"));
    expect(await d.next()).toMatchObject({ id: 2, error: { code: -32602, data: { errors: [{ path: "/text", message: "Invalid input: expected string, received undefined" }] } } });
  });

  it("name the type guard that refused them when a guard validates", async () => {
    const d = rawAgent(testAgent().handler, { connection: { extensions: [sum.handle(() => ({ total: 0 }))] } });
    await d.initialize();
    d.send(request(3, "_example.com/sum", { numbers: ["1"] }));
    expect(await d.next()).toMatchObject({ id: 3, error: { code: -32602, message: "Invalid params", data: { errors: [{ path: "", message: "does not satisfy the type guard isSumParams" }] } } });
  });
});

describe("an invalid result of an extension request", () => {
  it("rejects the call with -32603 naming the method and the failing locations, with an invalid_result diagnostic", async () => {
    // The handler breaks the result schema (its own types forbid it, so it is cast).
    const broken = echo.handle(() => ({ text: 1 }) as unknown as { text: string });
    const { client, diagnostics } = await initializedPair(testAgent().handler, testClient().handler, {}, { agent: { extensions: [broken] } });
    const error = await rpcError(client.request(echo, { text: "x" }));
    expect(error.toJSON()).toEqual({
      code: -32603,
      message: 'Invalid result for "_example.com/echo" from the agent',
      data: { errors: [{ path: "/text", message: "Invalid input: expected string, received number" }] },
    });
    expect(diagnostics.client.filter((x) => x.kind === "invalid_result").map((x) => x.message)).toEqual(['invalid result for "_example.com/echo"']);
  });
});

describe("an invalid extension notification", () => {
  it("is dropped with an invalid_notification diagnostic and never answered", async () => {
    const seen: number[] = [];
    const d = rawAgent(testAgent().handler, { connection: { extensions: [progress.handle((p) => void seen.push(p.percent))] } });
    await d.initialize();
    d.send(notification("_example.com/progress", { sessionId: "s", percent: 101 }));
    d.send(notification("_example.com/progress", { sessionId: "s", percent: 5 }));
    expect(await d.sync()).toEqual([]);
    expect(seen).toEqual([5]);
    expect(d.diagnostics.filter((x) => x.kind === "invalid_notification")).toEqual([{ kind: "invalid_notification", message: 'dropped "_example.com/progress" with invalid params', data: { errors: [{ path: "/percent", message: "Too big: expected number to be <=100" }] } }]);
  });
});
