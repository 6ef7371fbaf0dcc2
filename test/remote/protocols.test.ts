// Which HTTP versions each listening mode speaks: TLS negotiates h2 by ALPN and still serves
// HTTP/1.1 clients; h2c speaks HTTP/2 with prior knowledge.
import { request as httpsRequest } from "node:https";
import { connect } from "node:http2";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createCookieJar } from "../../src/remote/cookies.ts";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { createH2Fetch } from "../../src/remote/node-h2.ts";
import { INIT } from "./raw.ts";
import { connectOver, onCleanup, recordingClient, startServer, within } from "./support.ts";
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

describe("the affinity cookie option", () => {
  it("sets the cookie on initialize's 200 and on the WebSocket 101, and our clients send it back", async () => {
    const { url } = await startServer({ affinityCookie: "ACPSERVER=b1; Path=/; HttpOnly" });
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(INIT) });
    await res.text();
    expect(res.headers.get("set-cookie")).toBe("ACPSERVER=b1; Path=/; HttpOnly");
    const ws = new WebSocket(url.replace(/^http/, "ws"));
    const cookie = await within(new Promise((resolve, reject) => ws.once("upgrade", (r) => resolve(r.headers["set-cookie"])).once("error", reject)), "upgrade");
    ws.terminate();
    expect(cookie).toEqual(["ACPSERVER=b1; Path=/; HttpOnly"]);
    const jar = createCookieJar();
    const conn = await connectOver(httpClientTransport(url, { cookies: jar }), recordingClient().handler);
    await conn.agent.newSession({ cwd: "/", mcpServers: [] });
    expect(jar.header(url)).toBe("ACPSERVER=b1");
  });
});

describe("a long HTTP/2 session", () => {
  it("carries thousands of POSTs on one session (answers are read to their end, never reset: Node closes a session after 1,000 invalid frames)", async () => {
    const { url } = await startServer({}, { protocol: "h2c" });
    const h2 = createH2Fetch();
    onCleanup(() => h2.close());
    const conn = await connectOver(httpClientTransport(url, { fetch: h2 }), recordingClient().handler);
    const sessions: string[] = [];
    for (let i = 0; i < 16; i++) sessions.push((await conn.agent.newSession({ cwd: "/", mcpServers: [] })).sessionId);
    const stops: string[] = [];
    for (let round = 0; round < 200; round++) {
      const answers = await within(Promise.all(sessions.map((sessionId) => conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }))), `round ${round}`, 10_000);
      stops.push(...answers.map((a) => a.stopReason));
    }
    expect(stops.length).toBe(3200);
    expect(new Set(stops)).toEqual(new Set(["end_turn"]));
  });
});
