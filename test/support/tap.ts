/**
 * Wraps a transport and records every byte crossing it, decoded, in both
 * directions: `inbound()` is what the peer sent us, `outbound()` what we sent.
 *
 *   const tap = tapTransport(proc.transport);
 *   const conn = connectClient(handler, tap.transport);
 *   ... expect(tap.inbound().split("\n")) ...
 */
import type { Transport } from "../../src/index.ts";

export interface Tap {
  readonly transport: Transport;
  inbound(): string;
  outbound(): string;
}

export function tapTransport(inner: Transport): Tap {
  const decoder = new TextDecoder();
  let inbound = "";
  let outbound = "";
  const transport: Transport = {
    start(receiver) {
      inner.start({
        data(chunk) {
          inbound += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
          receiver.data(chunk);
        },
        end(error) {
          receiver.end(error);
        },
      });
    },
    write(text) {
      outbound += text;
      inner.write(text);
    },
    close() {
      inner.close();
    },
  };
  return { transport, inbound: () => inbound, outbound: () => outbound };
}
