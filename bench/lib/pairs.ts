/**
 * Client ↔ agent pairs in one process for round trips: the SDK's apps over
 * `ndJsonStream` on Web `TransformStream`s, and ours over `memoryPair()` or
 * the same Web streams.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { Transport } from "../../src/index.ts";
import { promptParams } from "./messages.ts";
import { ours } from "./ours.ts";
import { oursAgentHandler, oursClientHandler, sdkAgentApp, sdkClientApp } from "./peers.ts";

const { connectAgent, connectClient, memoryPair, webStreamTransport } = ours;

/** A connected client and agent; `prompt()` is one `session/prompt` round trip. */
export interface Pair {
  prompt(): Promise<unknown>;
  close(): void;
}

/** Two byte pipes made of Web `TransformStream`s, one per direction. */
function webPipes() {
  const clientToAgent = new TransformStream<Uint8Array, Uint8Array>();
  const agentToClient = new TransformStream<Uint8Array, Uint8Array>();
  return {
    agent: { readable: clientToAgent.readable, writable: agentToClient.writable },
    client: { readable: agentToClient.readable, writable: clientToAgent.writable },
  };
}

/** The SDK's client and agent over `ndJsonStream` on Web byte streams. */
export async function sdkPair(): Promise<Pair> {
  const pipes = webPipes();
  const agentConn = sdkAgentApp().connect(acp.ndJsonStream(pipes.agent.writable, pipes.agent.readable));
  const clientConn = sdkClientApp().connect(acp.ndJsonStream(pipes.client.writable, pipes.client.readable));
  const ctx = clientConn.agent;
  await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  return {
    prompt: () => ctx.request(acp.methods.agent.session.prompt, promptParams),
    close() {
      clientConn.close();
      agentConn.close();
    },
  };
}

/** acp-router's client and agent over `memoryPair()` (default) or the same Web streams as the SDK pair. */
export async function oursPair(over: "memory" | "web" = "memory"): Promise<Pair> {
  let agentSide: Transport;
  let clientSide: Transport;
  if (over === "memory") [agentSide, clientSide] = memoryPair();
  else {
    const pipes = webPipes();
    agentSide = webStreamTransport(pipes.agent.readable, pipes.agent.writable);
    clientSide = webStreamTransport(pipes.client.readable, pipes.client.writable);
  }
  const agentConn = connectAgent(oursAgentHandler(), agentSide);
  const clientConn = connectClient(oursClientHandler(), clientSide);
  await clientConn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
  return {
    prompt: () => clientConn.agent.prompt(promptParams),
    close() {
      clientConn.close();
      agentConn.close();
    },
  };
}
