// Flow control on the remote client transports (PITFALLS #16): a raw server floods 100,000
// session/updates at a client whose handler is held. Past maxQueuedNotifications the connection
// pauses its transport, which stops reading (the event stream's body over createHttp1Fetch, the ws
// socket), so the server's writes block and the client's heap stays flat. Measured in a child
// process with --expose-gc (test/remote/fixtures/slow-remote-client.ts). Without flow control the
// same run retained about 42 MiB over HTTP and 22 MiB over WebSocket, and the server wrote everything.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import { webSocketClientTransport, type WebSocketConstructor } from "../../src/remote/ws-client.ts";
import { runNode } from "../reliability/support.ts";

const fixture = fileURLToPath(new URL("./fixtures/slow-remote-client.ts", import.meta.url));

describe("client-side flow control", () => {
  it("is offered by the HTTP transport and the WebSocket transport over ws, not over a socket that cannot pause", () => {
    const NoPause = class {
      readyState = 0;
      bufferedAmount = 0;
      send() {}
      close() {}
      addEventListener() {}
    } as unknown as WebSocketConstructor;
    const http = httpClientTransport("http://127.0.0.1:9/acp");
    const ws = webSocketClientTransport("ws://127.0.0.1:9/acp", { WebSocket: nodeWebSocket });
    const whatwg = webSocketClientTransport("ws://127.0.0.1:9/acp", { WebSocket: NoPause });
    const offered = [http, ws, whatwg].map((t) => [typeof t.pause, typeof t.resume]);
    for (const t of [http, ws, whatwg]) {
      t.start({ data: () => {}, end: () => {} });
      t.close();
    }
    expect(offered).toEqual([
      ["function", "function"],
      ["function", "function"],
      ["undefined", "undefined"],
    ]);
  });

  it.each(["http", "ws"])("keeps the heap bounded over %s while 100,000 updates wait for a held handler, then delivers all of them in order", async (kind) => {
    const run = await runNode(["--expose-gc", "--import", "tsx", fixture, kind, "100000"], 90_000);
    expect(run.stderr).toBe("");
    const { maxGrowthMiB, ...rest } = JSON.parse(run.stdout) as { maxGrowthMiB: number };
    expect(maxGrowthMiB).toBeLessThan(8);
    // The server stalled on a full socket: the client stopped reading instead of buffering.
    expect(rest).toEqual({ serverState: "stalled after N", delivered: 100000, inOrder: true, stopReason: "end_turn", paused: true });
  });
});
