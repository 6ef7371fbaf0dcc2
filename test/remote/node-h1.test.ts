// createHttp1Fetch, the fetch over node:http for the HTTP client transport on Node: requests with
// bodies and headers, cookies both ways, an event stream read as it arrives, aborts before and
// after the head, and a body that stops its socket while nobody reads it. Full turns over it are in
// turns.test.ts.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createHttp1Fetch } from "../../src/remote/node-h1.ts";
import { deferred } from "../support/async.ts";
import { onCleanup, until, within } from "./support.ts";

/** A node:http server on 127.0.0.1 running `handle`; closed after the test. */
/** Serves `handle` on 127.0.0.1; a handler that throws or rejects answers 500 (instead of an unhandled rejection). */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<string> {
  const server = createServer((req, res) => {
    Promise.resolve()
      .then(() => handle(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent) res.statusCode = 500;
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/acp`;
}

function h1(): ReturnType<typeof createHttp1Fetch> {
  const f = createHttp1Fetch();
  onCleanup(() => f.close());
  return f;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.setEncoding("utf8").on("data", (t: string) => (text += t));
    req.once("end", () => resolve(text));
  });

describe("createHttp1Fetch", () => {
  it("sends the method, headers and body, and answers with status, headers, every set-cookie and the body", async () => {
    const url = await serve(async (req, res) => {
      const body = await readBody(req);
      res.setHeader("set-cookie", ["a=1; Path=/", "b=2; Path=/"]);
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ method: req.method, cookie: req.headers.cookie, auth: req.headers.authorization, length: req.headers["content-length"], body }));
    });
    const fetch = h1();
    const res = await within(fetch(url, { method: "POST", headers: { cookie: "x=9", authorization: "Bearer t" }, body: '{"é":1}' }), "POST");
    expect([res.status, res.headers.get("content-type"), res.headers.getSetCookie()]).toEqual([201, "application/json", ["a=1; Path=/", "b=2; Path=/"]]);
    expect(await res.json()).toEqual({ method: "POST", cookie: "x=9", auth: "Bearer t", length: "8", body: '{"é":1}' });
    const del = await within(fetch(url, { method: "DELETE" }), "DELETE");
    expect([del.status, (await del.json()).method]).toEqual([201, "DELETE"]);
  });

  it("reuses one kept-alive socket for requests that follow each other", async () => {
    const ports = new Set<number>();
    const url = await serve((req, res) => {
      ports.add(req.socket.remotePort as number);
      res.writeHead(202, { "content-length": "0" }).end();
    });
    const fetch = h1();
    for (let i = 0; i < 5; i++) {
      const res = await within(fetch(url, { method: "POST", body: "{}" }), `POST ${i}`);
      expect([res.status, await res.text()]).toEqual([202, ""]);
    }
    expect(ports.size).toBe(1);
  });

  it("delivers an event stream as it is written, before the response ends", async () => {
    const next = deferred<void>();
    const url = await serve(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      await next.promise;
      res.end("data: two\n\n");
    });
    const res = await within(h1()(url), "GET");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decode = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);
    expect(decode((await within(reader.read(), "first event")).value)).toBe("data: one\n\n");
    next.resolve();
    expect(decode((await within(reader.read(), "second event")).value)).toBe("data: two\n\n");
    expect((await within(reader.read(), "end")).done).toBe(true);
  });

  it("rejects an aborted request, and fails an aborted stream's body and closes its socket", async () => {
    const closed = deferred<void>();
    const url = await serve((req, res) => {
      if (req.headers["x-hold"] === "head") return;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      res.once("close", () => closed.resolve());
    });
    const fetch = h1();
    const early = new AbortController();
    const pending = fetch(url, { headers: { "x-hold": "head" }, signal: early.signal });
    early.abort();
    await expect(within(pending, "aborted request")).rejects.toMatchObject({ name: "AbortError" });
    const late = new AbortController();
    const res = await within(fetch(url, { signal: late.signal }), "GET");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await within(reader.read(), "first event");
    late.abort();
    await expect(within(reader.read(), "read after abort")).rejects.toMatchObject({ name: "AbortError" });
    await within(closed.promise, "the server to see the socket close");
  });

  it("stops reading the socket while nobody reads the body, then delivers every byte", async () => {
    const CHUNK = "x".repeat(64 * 1024);
    const LIMIT = 64 * 2 ** 20;
    let written = 0;
    let state = "";
    const go = deferred<void>();
    const url = await serve(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      // Up to 64 MiB as fast as the socket takes it; "stalled" once a write waited 300 ms to drain
      // (a state for the test to wait on, as flood-agent.mjs reports it; nothing asserts a time).
      while (written < LIMIT) {
        written += CHUNK.length;
        if (res.write(CHUNK)) continue;
        const timer = setTimeout(() => (state ||= "stalled"), 300);
        await new Promise((resolve) => res.once("drain", resolve));
        clearTimeout(timer);
      }
      state ||= "all written";
      await go.promise;
      res.end();
    });
    const res = await within(h1()(url), "GET");
    await until(() => state !== "", "the server to stall or finish", 20_000);
    // Socket buffers and the body's 64 KiB queue hold a few MiB at most, far below what was offered.
    expect(state).toBe("stalled");
    expect(written).toBeLessThan(16 * 2 ** 20);
    go.resolve();
    expect((await within(res.text(), "the whole body", 20_000)).length).toBe(LIMIT);
  });
});
