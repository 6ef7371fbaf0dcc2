// Which HTTP versions each listening mode speaks: TLS negotiates h2 by ALPN and still serves
// HTTP/1.1 clients; h2c speaks HTTP/2 with prior knowledge.
import { request as httpsRequest } from "node:https";
import { connect } from "node:http2";
import { describe, expect, it } from "vitest";
import { INIT } from "./raw.ts";
import { startServer, within } from "./support.ts";
import { throwawayCertificate } from "./tls.ts";

const tls = throwawayCertificate();

/** POSTs initialize over HTTP/2; returns the negotiated ALPN protocol and the status. */
async function h2Initialize(url: string, ca?: string): Promise<{ alpn: string | false | undefined; status: number }> {
  const target = new URL(url);
  const session = connect(target.origin, ca ? { ca } : {});
  try {
    const stream = session.request({ ":method": "POST", ":path": target.pathname, "content-type": "application/json" });
    stream.end(JSON.stringify(INIT));
    const status = await within(new Promise<number>((resolve, reject) => stream.once("response", (h) => resolve(Number(h[":status"]))).once("error", reject)), "h2 answer");
    stream.resume();
    return { alpn: session.alpnProtocol, status };
  } finally {
    session.close();
  }
}

describe("listening modes", () => {
  it("TLS negotiates h2 by ALPN for an HTTP/2 client", async () => {
    const { url } = await startServer({}, { protocol: "tls", tls });
    expect(await h2Initialize(url, tls.cert)).toEqual({ alpn: "h2", status: 200 });
  });

  it("TLS still serves an HTTP/1.1 client on the same port", async () => {
    const { url } = await startServer({}, { protocol: "tls", tls });
    const answer = await within(
      new Promise<{ version: string; status: number | undefined }>((resolve, reject) => {
        const req = httpsRequest(url, { method: "POST", ca: tls.cert, headers: { "content-type": "application/json" } }, (res) => {
          res.resume();
          resolve({ version: res.httpVersion, status: res.statusCode });
        });
        req.once("error", reject);
        req.end(JSON.stringify(INIT));
      }),
      "https answer",
    );
    expect(answer).toEqual({ version: "1.1", status: 200 });
  });

  it("h2c answers HTTP/2 with prior knowledge over cleartext", async () => {
    const { url } = await startServer({}, { protocol: "h2c" });
    expect(await h2Initialize(url)).toEqual({ alpn: "h2c", status: 200 });
  });
});
