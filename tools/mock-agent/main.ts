/**
 * `acp-router mock-agent [--listen HOST:PORT] [--protocol 1|2|negotiate] [--script FILE]`:
 * a deterministic ACP agent for client developers, on acp-router itself.
 * Over stdio it serves v1 and v2 through the version router (or one version
 * with `--protocol`); with `--listen` it serves Streamable HTTP and
 * WebSocket at `http://HOST:PORT/acp` (one protocol per server: v1 unless
 * `--protocol 2`, since the remote server speaks one table; a client that
 * offers v2 to it is answered v1 and falls back, as version negotiation
 * says). Diagnostics go to stderr; stdout carries protocol lines only.
 */
import { parseArgs } from "node:util";
import { connectAgent, protocol as protocolV1, type ConnectionOptions } from "../../src/index.ts";
import { listen } from "../../src/remote/node.ts";
import { createRemoteServer } from "../../src/remote/server.ts";
import { nodeStreamTransport } from "../../src/transport/stdio.ts";
import { protocol as protocolV2 } from "../../src/v2/index.ts";
import { routeAgent } from "../../src/versions/index.ts";
import { createMockAgentV1 } from "./agent-v1.ts";
import { createMockAgentV2 } from "./agent-v2.ts";
import { applyProcessBehaviours, lingering } from "./lifetime.ts";
import { loadScenario } from "./script.ts";
import { ADVERTISE_ALL, type MockOptions } from "./sessions.ts";
import { GRAMMAR } from "./steps.ts";

export const USAGE = `usage: acp-router mock-agent [--listen HOST:PORT] [--protocol 1|2|negotiate] [--script FILE]

A deterministic ACP agent for testing clients. The prompt text selects what it does.

options:
  --listen HOST:PORT   serve Streamable HTTP and WebSocket at http://HOST:PORT/acp instead of
                       stdio (port 0 picks one; the URL is printed on stderr as "serving at URL")
  --protocol P         1, 2 or negotiate (default negotiate: v1 and v2 over stdio; over
                       --listen, negotiate serves v1, which v2-first clients fall back to)
  --script FILE        replay a JSON scenario: prompt N of a session runs turns[N]
                       {"needs": ["loadSession","list","close","modes","configOptions"],
                        "turns": ["#updates all", ["#permission", "done"]]}
                       it advertises exactly the "needs" (default none); without --script
                       it advertises all five
  -h, --help           show this help

${GRAMMAR}
`;

function log(message: string): void {
  process.stderr.write(`[mock-agent] ${message}\n`);
}

/** Runs the mock agent with `argv`; resolves with the exit code once it is done serving. */
export async function mockAgentMain(argv: readonly string[]): Promise<number> {
  let values: { listen?: string | undefined; protocol?: string | undefined; script?: string | undefined; help?: boolean | undefined };
  try {
    values = parseArgs({ args: [...argv], options: { listen: { type: "string" }, protocol: { type: "string" }, script: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true }).values;
  } catch (error) {
    process.stderr.write(`acp-router mock-agent: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stderr.write(USAGE);
    return 0;
  }
  const version = values.protocol ?? "negotiate";
  if (version !== "1" && version !== "2" && version !== "negotiate") {
    process.stderr.write(`acp-router mock-agent: --protocol is 1, 2 or negotiate, got ${JSON.stringify(version)}\n`);
    return 2;
  }
  let options: MockOptions = { advertise: ADVERTISE_ALL, turns: [], log };
  if (values.script !== undefined) {
    try {
      const { process: behaviours, ...scenario } = loadScenario(values.script);
      options = { ...options, ...scenario };
      applyProcessBehaviours(behaviours, log);
    } catch (error) {
      process.stderr.write(`acp-router mock-agent: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
  }
  if (values.listen !== undefined) return serveRemote(values.listen, version === "2" ? 2 : 1, options);
  return serveStdio(version, options);
}

const connectionOptions: ConnectionOptions = {
  onDiagnostic: (d) => {
    if (d.kind !== "closed") log(`${d.kind}: ${d.message}`);
  },
};

async function serveStdio(version: "1" | "2" | "negotiate", options: MockOptions): Promise<number> {
  const transport = nodeStreamTransport(process.stdin, process.stdout, { endWritable: false });
  const routed = await routeAgent(
    transport,
    {
      v1: version !== "2" ? { protocol: protocolV1, handler: createMockAgentV1(options) } : undefined,
      v2: version !== "1" ? { protocol: protocolV2, handler: createMockAgentV2(options) } : undefined,
    },
    { ...connectionOptions, v1ShapeToV1: version !== "2" },
  );
  const closed = await routed?.connection.closed;
  if (closed?.error) log(`connection closed: ${closed.error.message}`);
  process.stdin.pause();
  process.stdin.unref?.();
  if (lingering()) {
    // `#linger` / "process": ["linger"]: stays until it is killed, as an agent that ignores EOF does.
    log("stdin closed; lingering (#linger) until killed");
    setInterval(() => undefined, 60_000);
    return new Promise<number>(() => undefined);
  }
  return 0;
}

/** Serves until SIGINT or SIGTERM, then drains running turns (up to 5 s). */
async function serveRemote(hostPort: string, version: 1 | 2, options: MockOptions): Promise<number> {
  const colon = hostPort.lastIndexOf(":");
  const host = colon > 0 ? hostPort.slice(0, colon).replace(/^\[|\]$/g, "") : "127.0.0.1";
  const port = Number(colon >= 0 ? hostPort.slice(colon + 1) : hostPort);
  if (hostPort === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`acp-router mock-agent: --listen wants HOST:PORT, got ${JSON.stringify(hostPort)}\n`);
    return 2;
  }
  // One handler for every connection: sessions outlive a connection, so a client may reconnect and load them.
  const remote = version === 1 ? createRemoteServer({ protocol: protocolV1, agent: createMockAgentV1(options), connection: connectionOptions }) : createRemoteServer({ protocol: protocolV2, agent: createMockAgentV2(options), connection: connectionOptions });
  const server = await listen(remote, { host, port });
  log(`serving at ${server.url} (protocol ${version}, Streamable HTTP and WebSocket)`);
  return new Promise<number>((done) => {
    const stop = () => {
      log("shutting down: draining running turns");
      void server.close({ graceMs: 5000 }).then(() => done(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
