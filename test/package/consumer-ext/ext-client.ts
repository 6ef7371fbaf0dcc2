// A client calling the zod-validated extension over stdio: a typed result, -32602 with
// per-location errors for invalid params, and a handler's -32002 kept as an RpcError.
import { fileURLToPath } from "node:url";
import { RpcError, connectClient } from "acp-router";
import { spawnAgent } from "acp-router/stdio";
import { echo, progress } from "./shared.js";

const seen: number[] = [];
const agent = spawnAgent(process.execPath, [fileURLToPath(new URL("./ext-agent.js", import.meta.url))]);
const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, agent.transport, {
  extensions: [progress.handle(({ percent }) => void seen.push(percent))],
});
await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
const { text } = await conn.request(echo, { text: "hi" });
const invalid = await conn.request(echo, { text: 42 } as never).catch((e: unknown) => (e instanceof RpcError ? { code: e.code, data: e.data } : String(e)));
const missing = await conn.request(echo, { text: "missing" }).catch((e: unknown) => (e instanceof RpcError ? e.code : String(e)));
console.log(JSON.stringify({ text, progress: seen, invalid, missing }));
conn.close();
await agent.exited;
