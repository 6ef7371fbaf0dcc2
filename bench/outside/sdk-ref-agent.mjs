#!/usr/bin/env node
// The outside driver's reference agent (../shared/bench/lib-ref-agent.mjs) built on the official
// SDK instead of acp-router, for the library-vs-SDK figure of `stdio-throughput.mjs`: the same
// answers (a fresh session id per session/new; a prompt streams "echo: " and its text as two
// agent_message_chunk updates, each awaited, then ends the turn), on the SDK's agent app over
// ndJsonStream on stdin/stdout. Plain JavaScript, nothing of bench/: run it from the project root.
//   node ../shared/bench/stdio-throughput.mjs --n 20000 --rounds 5 -- node ../shared/bench/lib-ref-agent.mjs ::: node bench/outside/sdk-ref-agent.mjs
import * as acp from "@agentclientprotocol/sdk";
import { Readable, Writable } from "node:stream";

let n = 0;
const sessions = new Set();
const update = (sessionId, text) => ({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
const app = acp
  .agent({ name: "ref", version: "0.0.1" })
  .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { loadSession: false }, authMethods: [] }))
  .onRequest(acp.methods.agent.session.new, () => {
    const sessionId = `s${++n}`;
    sessions.add(sessionId);
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    if (!sessions.has(params.sessionId)) throw acp.RequestError.resourceNotFound(params.sessionId);
    const text = params.prompt.map((b) => b.text ?? "").join(" ");
    for (const part of ["echo: ", text]) await client.notify(acp.methods.client.session.update, update(params.sessionId, part));
    return { stopReason: "end_turn" };
  });
app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
