/**
 * The example client's remote mode (`examples/client.ts --url URL`): a
 * transport to an agent served over the network instead of a spawned
 * process. `ws://` and `wss://` URLs use WebSocket; `http://` and `https://`
 * use Streamable HTTP (HTTP/1.1 through Node's fetch).
 */
import { httpClientTransport } from "../src/remote/http-client.ts";
import { nodeWebSocket } from "../src/remote/node-ws.ts";
import { webSocketClientTransport } from "../src/remote/ws-client.ts";
import type { Transport } from "../src/index.ts";

/** Shaped like `spawnAgent`'s result: the transport, and `exited` once the connection is over (always code 0: nothing was spawned). */
export function remoteAgent(url: string): { transport: Transport; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const inner = /^wss?:/.test(url) ? webSocketClientTransport(url, { WebSocket: nodeWebSocket }) : httpClientTransport(url);
  let done!: () => void;
  const over = new Promise<void>((resolve) => (done = resolve));
  const transport: Transport = {
    start: (receiver) =>
      inner.start({
        data: (chunk) => receiver.data(chunk),
        end: (error) => {
          done();
          receiver.end(error);
        },
      }),
    write: (text) => inner.write(text),
    close: () => inner.close(),
    // Flow control passes through (PITFALLS #16), where the inner transport has it.
    ...(inner.pause && inner.resume ? { pause: () => inner.pause?.(), resume: () => inner.resume?.() } : {}),
  };
  return { transport, exited: over.then(() => ({ code: 0, signal: null })) };
}
