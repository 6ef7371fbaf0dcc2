/**
 * An example ACP proxy (the Proxy Chains RFD): it adds a context block to
 * every prompt on its way to the agent, and logs each tool call the agent
 * reports on its way back to the client (to stderr; stdout carries the
 * protocol). Everything else passes through unchanged.
 *
 * Run it in a chain as a process of its own: `acp-router conduct -- npx tsx
 * examples/proxy.ts --name A -- npx tsx examples/agent.ts` (`--no-context`:
 * log only, the prompt passes unchanged); or build it in a module whose
 * default export is `exampleProxy(…)` and host it in the conductor's process
 * (`acp-router conduct --proxy-module FILE -- …`).
 * The context is a `resource_link` appended after the user's own blocks, so
 * the prompt's text (and an agent's reading of it) stays as the user wrote it.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { defineProxy, serveProxyStdio, type DefinedProxy } from "../src/proxy/index.ts";

/** The example proxy named `name` (in its context block and its log); `context: false` logs only. */
export function exampleProxy(name: string, context = true): DefinedProxy {
  return defineProxy({
    fromClient: {
      prompt: (params, { forward }) => forward(context ? { ...params, prompt: [...params.prompt, { type: "resource_link", name: `context-from-${name}`, uri: `context://${name}` }] } : params),
    },
    fromAgent: {
      sessionUpdate(params, { forward }) {
        const update = params.update;
        if (update.sessionUpdate === "tool_call") process.stderr.write(`${name}: tool call ${update.toolCallId}: ${update.title}\n`);
        return forward(params);
      },
    },
  });
}

// Run as a command (not imported as a module): serve it on stdin/stdout.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // --name: how the proxy names itself in the context block and its log; --no-context: log only.
  const { values } = parseArgs({ options: { name: { type: "string", default: "proxy" }, "no-context": { type: "boolean", default: false } } });
  serveProxyStdio(exampleProxy(values.name ?? "proxy", values["no-context"] !== true));
}
