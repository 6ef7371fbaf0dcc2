// An agent serving the zod-validated extensions over stdio, without codegen.
import { RpcError, serveStdio, type AgentHandler } from "acp-router";
import { echo, progress } from "./shared.js";

const agent: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  authenticate: () => ({}),
  newSession: () => ({ sessionId: "s-1" }),
  setSessionMode: () => ({}),
  setSessionConfigOption: () => ({ configOptions: [] }),
  prompt: () => ({ stopReason: "end_turn" }),
};

const conn = serveStdio(agent, {
  extensions: [
    echo.handle(async ({ text }) => {
      if (text === "missing") throw RpcError.resourceNotFound("file:///missing");
      await conn.notify(progress, { percent: 50 });
      return { text: text.toUpperCase() };
    }),
  ],
});
