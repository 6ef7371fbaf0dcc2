// The differences between the official SDK 2.4.0 and the compatibility package where the ACP
// spec decides, one test each (docs/sdk-drop-in.md lists them). Each app is written against the
// SDK's API and runs on compat/sdk; the other side is raw NDJSON, as a peer on stdio sees it.
import { describe, expect, it } from "vitest";
import * as acp from "../../compat/sdk/src/index.ts";
import { wire } from "./wire.ts";

const init = (id: number, clientCapabilities: object = {}) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: 1, clientCapabilities } });
const newSession = (id: number) => ({ jsonrpc: "2.0", id, method: "session/new", params: { cwd: "/", mcpServers: [] } });
const prompt = (id: number, text: string) => ({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text }] } });

/** An SDK-style agent: no optional capability advertised, but a session/load handler registered. */
function sdkAgent(onPrompt?: (ctx: acp.AgentRequestContext<acp.PromptRequest>) => Promise<acp.PromptResponse>) {
  const cancels: string[] = [];
  const app = acp
    .agent({ name: "compat-test" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { loadSession: false }, authMethods: [] }))
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "s1" }))
    .onRequest(acp.methods.agent.session.load, () => ({}))
    .onRequest(acp.methods.agent.session.prompt, (ctx) => (onPrompt ? onPrompt(ctx) : { stopReason: "end_turn" }))
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => void cancels.push(params.sessionId));
  return { app, cancels };
}

async function ready(w: ReturnType<typeof wire>, clientCapabilities: object = {}) {
  w.send(init(1, clientCapabilities));
  expect(await w.next()).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
  w.send(newSession(2));
  expect(await w.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { sessionId: "s1" } });
}

describe("an SDK agent on the compatibility package", () => {
  it("answers a method whose capability it did not advertise -32601 naming the capability, without running its handler (the SDK runs it)", async () => {
    const w = wire((s) => sdkAgent().app.connect(s));
    await ready(w);
    w.send({ jsonrpc: "2.0", id: 3, method: "session/load", params: { sessionId: "s1", cwd: "/", mcpServers: [] } });
    expect(await w.next()).toMatchObject({ id: 3, error: { code: -32601, data: { method: "session/load", reason: "agentCapabilities.loadSession was not advertised by the agent" } } });
  });

  it("refuses locally, sending nothing, a client method the client did not advertise (the SDK sends it)", async () => {
    let seenError: unknown;
    const w = wire((s) =>
      sdkAgent(async ({ params, client }) => {
        seenError = await client.request(acp.methods.client.fs.readTextFile, { sessionId: params.sessionId, path: "/etc/hostname" }).catch((e: unknown) => e);
        return { stopReason: "end_turn" };
      }).app.connect(s),
    );
    await ready(w, { fs: { readTextFile: false } });
    w.send(prompt(3, "read"));
    expect(await w.next()).toEqual({ jsonrpc: "2.0", id: 3, result: { stopReason: "end_turn" } });
    expect(seenError).toBeInstanceOf(acp.RequestError);
    expect(seenError).toMatchObject({ code: -32601 });
    expect(w.seen.some((m) => m.method === "fs/read_text_file")).toBe(false);
  });

  it("answers a cancelled prompt stopReason cancelled whatever its handler returns, and calls the session/cancel handler once", async () => {
    const agent = sdkAgent(async ({ signal }) => {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      return { stopReason: "end_turn" };
    });
    const w = wire((s) => agent.app.connect(s));
    await ready(w);
    w.send(prompt(3, "wait"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    w.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } });
    expect(await w.next()).toEqual({ jsonrpc: "2.0", id: 3, result: { stopReason: "cancelled" } });
    expect(agent.cancels).toEqual(["s1"]);
  });

  it("answers a request with id null -32600 with id null, running no handler (the SDK answers it with id null as if it were an id)", async () => {
    const w = wire((s) => sdkAgent().app.connect(s));
    await ready(w);
    w.send({ jsonrpc: "2.0", id: null, method: "session/new", params: { cwd: "/", mcpServers: [] } });
    expect(await w.next()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("echoes a readable id in -32600 for a bad envelope (the SDK answers id null)", async () => {
    const w = wire((s) => sdkAgent().app.connect(s));
    await ready(w);
    w.send({ jsonrpc: "1.0", id: 7, method: "session/new", params: { cwd: "/", mcpServers: [] } });
    expect(await w.next()).toMatchObject({ id: 7, error: { code: -32600, data: { errors: [{ path: "/jsonrpc" }] } } });
  });

  it("delivers every session/update it sent before the prompt's answer, in order", async () => {
    const w = wire((s) =>
      sdkAgent(async ({ params, client }) => {
        for (let i = 0; i < 20; i++) void client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${i}` } } });
        return { stopReason: "end_turn" };
      }).app.connect(s),
    );
    await ready(w);
    w.send(prompt(3, "count"));
    const texts: string[] = [];
    for (;;) {
      const m = await w.next();
      if (m.id === 3) break;
      texts.push((m.params as { update: { content: { text: string } } }).update.content.text);
    }
    expect(texts).toEqual(Array.from({ length: 20 }, (_, i) => `${i}`));
  });

  it("answers bad input with the core's errors and stays usable: parse error, a too-deep line, then a working request", async () => {
    const w = wire((s) => sdkAgent().app.connect(s));
    await ready(w);
    w.send("{not json");
    expect(await w.next()).toMatchObject({ id: null, error: { code: -32700, message: "Parse error" } });
    w.send(`{"jsonrpc":"2.0","id":4,"method":"_x/deep","params":${"[".repeat(300)}${"]".repeat(300)}}`);
    expect(await w.next()).toMatchObject({ id: null, error: { code: -32700 } });
    w.send(newSession(5));
    expect(await w.next()).toEqual({ jsonrpc: "2.0", id: 5, result: { sessionId: "s1" } });
  });
});

describe("an SDK client on the compatibility package", () => {
  it("resolves session/close and session/delete answered -32002 with {}, as the SDK does (ACP: the same end state)", async () => {
    const w = wire((s) => acp.client({ name: "compat-test" }).connect(s));
    const agentSide = w.connection.agent;
    const initializing = agentSide.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    w.send({ jsonrpc: "2.0", id: (await w.next()).id, result: { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { close: {}, delete: {}, list: {} } }, authMethods: [] } });
    await initializing;
    const closing = agentSide.request(acp.methods.agent.session.close, { sessionId: "gone" });
    w.send({ jsonrpc: "2.0", id: (await w.next()).id, error: { code: -32002, message: "Resource not found" } });
    expect(await closing).toEqual({});
    const listing = agentSide.request(acp.methods.agent.session.list, {});
    w.send({ jsonrpc: "2.0", id: (await w.next()).id, error: { code: -32002, message: "Resource not found" } });
    await expect(listing).rejects.toMatchObject({ code: -32002 });
  });

  it("answers the agent's pending permission request cancelled itself when it sends session/cancel (the SDK leaves it to the agent's $/cancel_request)", async () => {
    const w = wire((s) =>
      acp
        .client({ name: "compat-test" })
        .onRequest(acp.methods.client.session.requestPermission, ({ signal }) => new Promise<acp.RequestPermissionResponse>((resolve) => signal.addEventListener("abort", () => resolve({ outcome: { outcome: "selected", optionId: "late" } }))))
        .connect(s),
    );
    const agentSide = w.connection.agent;
    const initializing = agentSide.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const initRequest = await w.next();
    w.send({ jsonrpc: "2.0", id: initRequest.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
    await initializing;
    w.send({ jsonrpc: "2.0", id: "p1", method: "session/request_permission", params: { sessionId: "s1", toolCall: { toolCallId: "t1" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await agentSide.notify(acp.methods.agent.session.cancel, { sessionId: "s1" });
    const answers = [await w.next(), await w.next()];
    expect(answers).toContainEqual({ jsonrpc: "2.0", id: "p1", result: { outcome: { outcome: "cancelled" } } });
    expect(answers).toContainEqual({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } });
  });

  it("runs an async session/update handler to completion before the next update, and before the prompt resolves", async () => {
    const log: string[] = [];
    const w = wire((s) =>
      acp
        .client({ name: "compat-test" })
        .onNotification(acp.methods.client.session.update, async ({ params }) => {
          const text = params.update.sessionUpdate === "agent_message_chunk" && params.update.content.type === "text" ? params.update.content.text : "?";
          log.push(`start ${text}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          log.push(`end ${text}`);
        })
        .connect(s),
    );
    const agentSide = w.connection.agent;
    const initializing = agentSide.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    w.send({ jsonrpc: "2.0", id: (await w.next()).id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
    await initializing;
    const prompting = agentSide.request(acp.methods.agent.session.prompt, { sessionId: "s1", prompt: [] }).then(() => log.push("answer"));
    const promptId = (await w.next()).id;
    for (const text of ["a", "b"]) w.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } } });
    w.send({ jsonrpc: "2.0", id: promptId, result: { stopReason: "end_turn" } });
    await prompting;
    expect(log).toEqual(["start a", "end a", "start b", "end b", "answer"]);
  });
});

describe("bad input through the compatibility package", () => {
  it("leaves no unhandled rejection: a throwing notification handler, a throwing parser, a closed connection's calls", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const app = sdkAgent()
        .app.onNotification(
          "_x/boom",
          (p: unknown) => p,
          () => {
            throw new Error("boom");
          },
        )
        .onRequest(
          "_x/strict",
          (p: unknown) => {
            if (typeof (p as { n?: unknown }).n !== "number") throw new Error("n must be a number");
            return p;
          },
          ({ params }) => params,
        );
      const w = wire((s) => app.connect(s));
      await ready(w);
      w.send({ jsonrpc: "2.0", method: "_x/boom", params: {} });
      w.send({ jsonrpc: "2.0", id: 3, method: "_x/strict", params: { n: "one" } });
      expect(await w.next()).toMatchObject({ id: 3, error: { code: -32602, data: { details: "n must be a number" } } });
      w.connection.close();
      await w.connection.closed;
      await expect(w.connection.client.request(acp.methods.client.fs.readTextFile, { sessionId: "s1", path: "/x" })).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("an SDK stream read by the app's own code (a wire tap)", () => {
  it("still answers a line that is not JSON -32700 with id null, and serves the next line", async () => {
    const w = wire((s) => {
      // A tap between the stream and the app, as acpx installs: the app sees message objects only.
      const tapped = { readable: s.readable.pipeThrough(new TransformStream()), writable: s.writable };
      return sdkAgent().app.connect(tapped);
    });
    w.send("{not json");
    expect(await w.next()).toMatchObject({ id: null, error: { code: -32700, message: "Parse error" } });
    w.send(init(1));
    expect(await w.next()).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
  });
});
