/**
 * An example ACP proxy (the Proxy Chains RFD): it adds a context block to
 * every prompt on its way to the agent, and logs each tool call the agent
 * reports on its way back to the client (to stderr; stdout carries the
 * protocol). Everything else passes through unchanged.
 *
 * Run it in a chain: `acp-router conduct -- npx tsx examples/proxy.ts --name A -- npx tsx examples/agent.ts`
 * (`--no-context`: log only, the prompt passes unchanged).
 * The context is a `resource_link` appended after the user's own blocks, so
 * the prompt's text (and an agent's reading of it) stays as the user wrote it.
 */
import { parseArgs } from "node:util";
import { serveProxyStdio } from "../src/proxy/index.ts";

// --name: how the proxy names itself in the context block and its log; --no-context: log only.
const { values } = parseArgs({ options: { name: { type: "string", default: "proxy" }, "no-context": { type: "boolean", default: false } } });
const name = values.name ?? "proxy";
const inject = values["no-context"] !== true;

serveProxyStdio({
  fromClient: {
    prompt: (params, { forward }) => forward(inject ? { ...params, prompt: [...params.prompt, { type: "resource_link", name: `context-from-${name}`, uri: `context://${name}` }] } : params),
  },
  fromAgent: {
    sessionUpdate(params, { forward }) {
      const update = params.update;
      if (update.sessionUpdate === "tool_call") process.stderr.write(`${name}: tool call ${update.toolCallId}: ${update.title}\n`);
      return forward(params);
    },
  },
});
