// DESIGN §7 and PITFALLS 3: a notification handler that calls the peer through the OUTER
// connection object, after any number of awaits, gets its answers; so do the requests that
// call causes the peer to send back. The ordering guarantees stay intact around it.
import { describe, expect, it } from "vitest";
import type { AgentConnection, ClientConnection } from "../../src/index.ts";
import { delay, until, within } from "../support/async.ts";
import { chunkText, params, testAgent, testClient } from "../support/handlers.ts";
import { initializedPair } from "../support/pair.ts";

/** Late-bound connections: handlers are written before `connectAgent`/`connectClient` return. */
interface Holder {
  agent?: AgentConnection;
  client?: ClientConnection;
}

describe("a client's session/update handler calling the agent through the outer connection", () => {
  it("gets its answers after awaiting a microtask, a timer and another request", async () => {
    const conns: Holder = {};
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await ctx.peer.sessionUpdate(params.update(p.sessionId, "needs a mode"));
        return { stopReason: "end_turn" };
      },
    });
    const answers: unknown[] = [];
    const client = testClient({
      sessionUpdate: async (n) => {
        if (chunkText(n) !== "needs a mode") return;
        const conn = conns.client as ClientConnection;
        await Promise.resolve();
        await delay(1);
        answers.push(await conn.request("_first", { sessionId: n.sessionId }));
        answers.push(await conn.agent.setSessionMode({ sessionId: n.sessionId, modeId: "code" }));
      },
    });
    const pair = await initializedPair(agent.handler, client.handler);
    conns.client = pair.client;
    try {
      const { sessionId } = await pair.client.agent.newSession(params.newSession());
      expect(await within(pair.client.agent.prompt(params.prompt(sessionId)), "prompt whose update handler calls conn.agent", 2000)).toEqual({ stopReason: "end_turn" });
      expect(answers).toEqual([{ method: "_first", params: { sessionId } }, {}]);
      expect(agent.calls).toEqual(["initialize", "newSession", "prompt", "extMethod:_first", "setSessionMode"]);
    } finally {
      pair.client.close();
    }
  });

  it("gets the answer even when the agent sends an update of that session before answering, and sees that update after the handler", async () => {
    const conns: Holder = {};
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await ctx.peer.sessionUpdate(params.update(p.sessionId, "u1"));
        await ctx.peer.sessionUpdate(params.update(p.sessionId, "u2"));
        return { stopReason: "end_turn" };
      },
      setSessionMode: async (p, ctx) => {
        await ctx.peer.sessionUpdate(params.update(p.sessionId, "mode changed"));
        return {};
      },
    });
    const log: string[] = [];
    const client = testClient({
      sessionUpdate: async (n) => {
        const text = chunkText(n) ?? "?";
        log.push(`start ${text}`);
        if (text === "u1") {
          await delay(1);
          await (conns.client as ClientConnection).agent.setSessionMode({ sessionId: n.sessionId, modeId: "code" });
          log.push("mode answered");
        }
        log.push(`end ${text}`);
      },
    });
    const pair = await initializedPair(agent.handler, client.handler);
    conns.client = pair.client;
    try {
      const { sessionId } = await pair.client.agent.newSession(params.newSession());
      const seen = await within(
        pair.client.agent.prompt(params.prompt(sessionId)).then(() => [...log]),
        "prompt",
        2000,
      );
      await until(() => log.length === 7, "every update handled");
      expect(log).toEqual(["start u1", "mode answered", "end u1", "start u2", "end u2", "start mode changed", "end mode changed"]);
      // The prompt's answer still waits for both of its updates.
      expect(seen.slice(0, 5)).toEqual(["start u1", "mode answered", "end u1", "start u2", "end u2"]);
    } finally {
      pair.client.close();
    }
  });

  it("answers the permission request the agent sends back while the handler waits for its call", async () => {
    const conns: Holder = {};
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await ctx.peer.sessionUpdate(params.update(p.sessionId, "needs a mode"));
        return { stopReason: "end_turn" };
      },
      setSessionMode: async (p, ctx) => {
        const answer = await ctx.peer.requestPermission(params.permission(p.sessionId));
        return { _meta: { outcome: answer.outcome.outcome } };
      },
    });
    const answers: unknown[] = [];
    const client = testClient({
      sessionUpdate: async (n) => {
        await Promise.resolve();
        await delay(1);
        answers.push(await (conns.client as ClientConnection).agent.setSessionMode({ sessionId: n.sessionId, modeId: "code" }));
      },
    });
    const pair = await initializedPair(agent.handler, client.handler);
    conns.client = pair.client;
    try {
      const { sessionId } = await pair.client.agent.newSession(params.newSession());
      expect(await within(pair.client.agent.prompt(params.prompt(sessionId)), "prompt", 2000)).toEqual({ stopReason: "end_turn" });
      expect(answers).toEqual([{ _meta: { outcome: "selected" } }]);
      expect(client.calls).toEqual(["sessionUpdate", "requestPermission"]);
    } finally {
      pair.client.close();
    }
  });
});

describe("a permission request queued behind an update handler", () => {
  it("is let go once that handler calls the agent and waits, when the agent needs the permission answered first", async () => {
    const conns: Holder = {};
    let permissionAnswered: Promise<unknown> | undefined;
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await ctx.peer.sessionUpdate(params.update(p.sessionId, "u1"));
        permissionAnswered = ctx.peer.requestPermission(params.permission(p.sessionId));
        await permissionAnswered;
        return { stopReason: "end_turn" };
      },
      // As an agent that serialises a session's operations would: the mode changes after the pending permission.
      setSessionMode: async () => {
        await permissionAnswered;
        return {};
      },
    });
    const log: string[] = [];
    const client = testClient({
      sessionUpdate: async (n) => {
        log.push("update started");
        await delay(5);
        log.push("calling setSessionMode");
        await (conns.client as ClientConnection).agent.setSessionMode({ sessionId: n.sessionId, modeId: "code" });
        log.push("update done");
      },
      requestPermission: () => {
        log.push("permission");
        return { outcome: { outcome: "selected", optionId: "allow" } };
      },
    });
    const pair = await initializedPair(agent.handler, client.handler);
    conns.client = pair.client;
    try {
      const { sessionId } = await pair.client.agent.newSession(params.newSession());
      expect(await within(pair.client.agent.prompt(params.prompt(sessionId)), "prompt", 2000)).toEqual({ stopReason: "end_turn" });
      // The permission request arrived during the delay and waited for the update until it called the agent.
      expect(log).toEqual(["update started", "calling setSessionMode", "permission", "update done"]);
    } finally {
      pair.client.close();
    }
  });
});

describe("an agent's extension notification handler calling the client through the outer connection", () => {
  it("gets its answers after awaiting a microtask, a timer and another request", async () => {
    const conns: Holder = {};
    const answers: unknown[] = [];
    const agent = testAgent({
      extNotification: async (_method, p) => {
        const sessionId = p.sessionId as string;
        const conn = conns.agent as AgentConnection;
        await Promise.resolve();
        await delay(1);
        answers.push(await conn.request("_first", { sessionId }));
        answers.push(await conn.request("_second", { sessionId }));
      },
    });
    const client = testClient({ extMethod: (method, p) => ({ method, echoed: p.sessionId }) });
    const pair = await initializedPair(agent.handler, client.handler);
    conns.agent = pair.agent;
    try {
      await pair.client.notify("_note", { sessionId: "s1" });
      await until(() => answers.length === 2, "both answers reach the agent's handler", 2000);
      expect(answers).toEqual([
        { method: "_first", echoed: "s1" },
        { method: "_second", echoed: "s1" },
      ]);
    } finally {
      pair.client.close();
    }
  });

  it("answers the request the client sends back while the handler waits for its call", async () => {
    const conns: Holder = {};
    const answers: unknown[] = [];
    const agent = testAgent({
      extNotification: async (_method, p) => {
        await delay(1);
        answers.push(await (conns.agent as AgentConnection).request("_ask", { sessionId: p.sessionId as string }));
      },
      extMethod: (method) => ({ answeredBy: method }),
    });
    const client = testClient({ extMethod: async (_method, p) => ({ inner: await (conns.client as ClientConnection).request("_back", { sessionId: p.sessionId as string }) }) });
    const pair = await initializedPair(agent.handler, client.handler);
    conns.agent = pair.agent;
    conns.client = pair.client;
    try {
      await pair.client.notify("_note", { sessionId: "s1" });
      await until(() => answers.length === 1, "the answer reaches the agent's handler", 2000);
      expect(answers).toEqual([{ inner: { answeredBy: "_back" } }]);
    } finally {
      pair.client.close();
    }
  });
});
