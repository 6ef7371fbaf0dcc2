// The v2 draft's unstable methods (session/fork, providers/*) through the compatibility package,
// both ways over real stdio: the real SDK 2.4.0's v2 unstable client against an agent built on the
// package, and the package's v2 unstable client against the same agent on the real SDK. Each side
// is imported or started explicitly, so this file means the same under `npm test` and
// `npm run test:sdk-compat`.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import * as realSdk from "../../node_modules/@agentclientprotocol/sdk/dist/v2/unstable/acp.js";
import * as packageSdk from "../../compat/sdk/src/v2-unstable.ts";
import { within } from "../support/async.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const agentPath = fileURLToPath(new URL("./fixtures/sdk-v2-unstable-agent.ts", import.meta.url));
const hook = fileURLToPath(new URL("../../compat/sdk/dev/register.mjs", import.meta.url));

type Sdk = typeof realSdk;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** Starts the fixture agent on the package (`onPackage`) or on the real SDK; connects `sdk`'s v2 unstable client to it. */
function start(sdk: Sdk, onPackage: boolean) {
  // NODE_OPTIONS may carry the swap hook (test:sdk-compat): each child gets exactly what it is asked for.
  const { NODE_OPTIONS: _inherited, ...env } = process.env;
  const args = ["--import", "tsx", ...(onPackage ? ["--import", hook] : []), agentPath];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const chunks: { sessionId: string; text: string }[] = [];
  const idles: string[] = [];
  const connection = sdk
    .client({ name: "v2-unstable-client" })
    .onNotification(sdk.methods.client.session.update, ({ params }) => {
      const u = params.update as { sessionUpdate: string; state?: string; content?: { type: string; text?: string } };
      if (u.sessionUpdate === "agent_message_chunk" && u.content?.type === "text") chunks.push({ sessionId: params.sessionId, text: u.content.text ?? "" });
      if (u.sessionUpdate === "state_update" && u.state === "idle") idles.push(params.sessionId);
    })
    .connect(sdk.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  stops.push(async () => {
    connection.close();
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
  });
  const agent = connection.agent;
  const turn = async (sessionId: string, text: string): Promise<string> => {
    const from = idles.length;
    const sent = chunks.length;
    expect(await agent.request(sdk.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] })).toMatchObject({ messageId: expect.any(String) });
    await within(
      (async () => {
        while (!idles.slice(from).includes(sessionId)) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      `the idle state_update of ${sessionId}`,
      10_000,
    );
    return chunks
      .slice(sent)
      .filter((c) => c.sessionId === sessionId)
      .map((c) => c.text)
      .join("");
  };
  return { agent, turn };
}

/** The same conversation whichever library is on which side. */
async function conversation(sdk: Sdk, onPackage: boolean): Promise<void> {
  const { agent, turn } = start(sdk, onPackage);
  const init = await agent.request(sdk.methods.agent.initialize, { protocolVersion: 2, info: { name: "v2-unstable-client", version: "0" }, capabilities: {} });
  expect(init).toMatchObject({ protocolVersion: 2, info: { name: "sdk-v2-unstable-agent" }, capabilities: { session: { fork: {} }, providers: {} } });
  const { sessionId } = await agent.request(sdk.methods.agent.session.new, { cwd: root });
  expect(await turn(sessionId, "hello")).toBe("hello");
  const fork = await agent.request(sdk.methods.agent.session.fork, { sessionId, cwd: root });
  expect(fork.sessionId).not.toBe(sessionId);
  expect(await turn(fork.sessionId, "again")).toBe("hello / again");
  expect(await turn(sessionId, "parent")).toBe("hello / parent");
  const list = async () => (await agent.request(sdk.methods.agent.providers.list, {})).providers;
  expect(await list()).toEqual([{ providerId: "main", supported: ["openai", "anthropic"], required: false, current: null }]);
  expect(await agent.request(sdk.methods.agent.providers.set, { providerId: "main", apiType: "anthropic", baseUrl: "https://llm.example/v1" })).toEqual({});
  expect((await list())[0]?.current).toEqual({ apiType: "anthropic", baseUrl: "https://llm.example/v1" });
  expect(await turn(fork.sessionId, "more")).toBe("hello / again / more via anthropic");
  await expect(agent.request(sdk.methods.agent.providers.set, { providerId: "other", apiType: "openai", baseUrl: "https://x.example" })).rejects.toMatchObject({ code: -32602, data: { providerId: "other" } });
  expect(await agent.request(sdk.methods.agent.providers.disable, { providerId: "main" })).toEqual({});
  expect((await list())[0]?.current).toBeNull();
  await expect(agent.request(sdk.methods.agent.session.fork, { sessionId: "nobody", cwd: root })).rejects.toMatchObject({ code: -32002 });
}

describe("v2 unstable methods through the compatibility package", () => {
  it("the real SDK's v2 unstable client forks and sets providers on an agent built on the package", async () => {
    await conversation(realSdk, true);
  });

  it("the package's v2 unstable client forks and sets providers on the same agent built on the real SDK", async () => {
    await conversation(packageSdk as unknown as Sdk, false);
  });
});
