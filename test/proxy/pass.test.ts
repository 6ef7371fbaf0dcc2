// The pass-through path of a proxy (src/proxy/pass.ts) line by line, with the test as the conductor:
// what no hook wants leaves as the text it came in with (id spliced, wrapped or unwrapped), cancels
// keep their meaning, and everything else still meets the connection (docs/proxy.md, "What a
// pass-through proxy checks"). Then the splices themselves, and when they give way to encoding.
import { describe, expect, it } from "vitest";
import { connectProxy, type ProxyHooks } from "../../src/proxy/index.ts";
import { fromValue, Inbound, readLine, renamedLine, unwrap, unwrappedLine, withId, wrappedLine } from "../../src/proxy/splice.ts";
import { kindOf } from "../../src/transport/reader.ts";
import { memoryPair } from "../../src/transport/memory.ts";

/** A proxy served over memory, and the conductor's end of it: lines in, lines out. */
function proxyHop(hooks: ProxyHooks = {}) {
  const [conductor, proxy] = memoryPair();
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffer = "";
  conductor.start({
    data(chunk) {
      buffer += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      let i;
      while ((i = buffer.indexOf("\n")) !== -1) {
        lines.push(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
      }
      for (const w of waiters.splice(0)) w();
    },
    end() {},
  });
  let read = 0;
  const next = async (): Promise<string> => {
    while (read >= lines.length) await new Promise<void>((r) => waiters.push(r));
    return lines[read++] as string;
  };
  const send = (line: string) => conductor.write(`${line}\n`);
  const conn = connectProxy(hooks, proxy);
  /** `proxy/initialize` from the conductor, the proxy's `initialize` to its successor answered. */
  const initialize = async () => {
    send('{"jsonrpc":"2.0","id":0,"method":"proxy/initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}');
    const forwarded = JSON.parse(await next()) as { id: number; method: string; params: { method: string } };
    expect([forwarded.method, forwarded.params.method]).toEqual(["proxy/successor", "initialize"]);
    send(JSON.stringify({ jsonrpc: "2.0", id: forwarded.id, result: { protocolVersion: 1, agentCapabilities: {} } }));
    expect(JSON.parse(await next())).toEqual({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
  };
  return { send, next, initialize, conn, lines: () => lines.slice(read) };
}

// Texts JSON.stringify would write otherwise (an escaped é, a space): passing them on unchanged shows no re-encoding.
const PROMPT = '{"sessionId":"s","prompt":[{"type":"text","text":"caf\\u00e9"}], "x":1}';
const UPDATE = '{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"caf\\u00e9"}}}';

describe("a proxy with no hook for a message passes its text on", () => {
  it("wraps a prompt in proxy/successor, unwraps the successor's updates and passes the answer back, all as text", async () => {
    const hop = proxyHop();
    await hop.initialize();
    hop.send(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":${PROMPT}}`);
    expect(await hop.next()).toBe(`{"jsonrpc":"2.0","id":"p0","method":"proxy/successor","params":{"method":"session/prompt","params":${PROMPT}}}`);
    hop.send(`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"session/update","params":${UPDATE}}}`);
    expect(await hop.next()).toBe(`{"jsonrpc":"2.0","method":"session/update","params":${UPDATE}}`);
    hop.send('{"jsonrpc":"2.0","id":"p0","result":{"stopReason":"end_turn"}}');
    expect(await hop.next()).toBe('{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn"}}');
    hop.conn.close();
  });

  it("passes the successor's requests to the predecessor and their answers back under the envelope's id", async () => {
    const hop = proxyHop();
    await hop.initialize();
    const permission = '{"sessionId":"s","toolCall":{"toolCallId":"t"},"options":[]}';
    hop.send(`{"jsonrpc":"2.0","id":3,"method":"proxy/successor","params":{"method":"session/request_permission","params":${permission}}}`);
    expect(await hop.next()).toBe(`{"jsonrpc":"2.0","id":"p0","method":"session/request_permission","params":${permission}}`);
    hop.send('{"jsonrpc":"2.0","id":"p0","result":{"outcome":{"outcome":"cancelled"}}}');
    expect(await hop.next()).toBe('{"jsonrpc":"2.0","id":3,"result":{"outcome":{"outcome":"cancelled"}}}');
    hop.conn.close();
  });

  it("leaves params unvalidated for the ends to judge, but an envelope without its method meets the connection (-32602)", async () => {
    const hop = proxyHop();
    await hop.initialize();
    hop.send('{"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{"sessionId":5}}');
    expect(await hop.next()).toBe('{"jsonrpc":"2.0","id":"p0","method":"proxy/successor","params":{"method":"session/prompt","params":{"sessionId":5}}}');
    hop.send('{"jsonrpc":"2.0","id":4,"method":"proxy/successor","params":{"params":{}}}');
    expect(JSON.parse(await hop.next())).toMatchObject({ id: 4, error: { code: -32602 } });
    hop.conn.close();
  });

  it("opens only once its own initialize answered: before, the connection's gate answers", async () => {
    const hop = proxyHop();
    hop.send(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":${PROMPT}}`);
    expect(JSON.parse(await hop.next())).toMatchObject({ id: 1, error: { code: -32600 } });
    hop.conn.close();
  });

  it("cancels as the connection's path does: $/cancel_request on its own hop, session/cancel once per running turn, -32800 becomes the turn's cancelled result", async () => {
    const hop = proxyHop();
    await hop.initialize();
    hop.send(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":${PROMPT}}`);
    expect(JSON.parse(await hop.next())).toMatchObject({ id: "p0" });
    hop.send('{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":7}}');
    expect(await hop.next()).toBe('{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"p0"}}');
    hop.send('{"jsonrpc":"2.0","id":"p0","error":{"code":-32800,"message":"Request cancelled"}}');
    expect(JSON.parse(await hop.next())).toEqual({ jsonrpc: "2.0", id: 7, result: { stopReason: "cancelled" } });

    hop.send(`{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":${PROMPT}}`);
    expect(JSON.parse(await hop.next())).toMatchObject({ id: "p1" });
    hop.send('{"jsonrpc":"2.0","id":5,"method":"proxy/successor","params":{"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t"},"options":[]}}}');
    expect(JSON.parse(await hop.next())).toMatchObject({ id: "p2", method: "session/request_permission" });
    hop.send('{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}');
    hop.send('{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}');
    const cancels = [JSON.parse(await hop.next()), JSON.parse(await hop.next())] as unknown[];
    expect(cancels).toEqual([
      { jsonrpc: "2.0", method: "proxy/successor", params: { method: "session/cancel", params: { sessionId: "s" } } },
      { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "p2" } },
    ]);
    // The turn still waits for its answer, which passes back as it is.
    hop.send('{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"cancelled"}}');
    expect(await hop.next()).toBe('{"jsonrpc":"2.0","id":9,"result":{"stopReason":"cancelled"}}');
    expect(hop.lines()).toEqual([]);
    hop.conn.close();
  });

  it("keeps the successor's side on the path when only fromClient has hooks; the hooked prompt is validated and goes through its hook", async () => {
    const seen: string[] = [];
    const hop = proxyHop({ fromClient: { prompt: (params, { forward }) => (seen.push(params.sessionId), forward(params)) } });
    await hop.initialize();
    hop.send('{"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{"sessionId":5}}');
    expect(JSON.parse(await hop.next())).toMatchObject({ id: 8, error: { code: -32602 } });
    hop.send(`{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":${PROMPT}}`);
    const forwarded = JSON.parse(await hop.next()) as { id: unknown; params: { method: string } };
    expect([typeof forwarded.id, forwarded.params.method, seen]).toEqual(["number", "session/prompt", ["s"]]);
    hop.send(`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"session/update","params":${UPDATE}}}`);
    expect(await hop.next()).toBe(`{"jsonrpc":"2.0","method":"session/update","params":${UPDATE}}`);
    hop.conn.close();
  });
});

describe("the splices of a message's text", () => {
  const inbound = (line: string): Inbound => {
    const read = readLine(line, 128, kindOf);
    if (!(read instanceof Inbound)) throw new Error(`not a message: ${line}`);
    return read;
  };
  const inner = (line: string) => {
    const wrapped = unwrap(inbound(line), "proxy/successor");
    if (typeof wrapped === "string") throw new Error(wrapped);
    return wrapped;
  };
  it("wrap and unwrap the params' own text", () => {
    const update = inbound(`{"jsonrpc":"2.0","method":"session/update","params":${UPDATE}}`);
    expect(wrappedLine(undefined, "proxy/successor", update)).toBe(`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"session/update","params":${UPDATE}}}`);
    expect(wrappedLine(4, "proxy/successor", update)).toBe(`{"jsonrpc":"2.0","id":4,"method":"proxy/successor","params":{"method":"session/update","params":${UPDATE}}}`);
    const envelope = `{"jsonrpc":"2.0","id":"a","method":"proxy/successor","params":{"method":"session/prompt","params":${PROMPT}}}`;
    expect(unwrappedLine(2, "session/prompt", inner(envelope))).toBe(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":${PROMPT}}`);
  });

  it("read any layout by where its members lie: members in another order, spaces, extra members (left on their hop), an envelope's _meta (left on its hop)", () => {
    const cases = [
      '{"params":{"a":1},"method":"session/update","jsonrpc":"2.0"}',
      '{ "jsonrpc" : "2.0" , "method" : "session/update" , "params" : { "a" : 1 } }',
      '{"jsonrpc":"2.0","method":"session/update","params":{"a":1},"x":1}',
      '{"jsonrpc":"2.0","method":"session/update","params":{"a":1},"jsonrpc":"2.0"}',
    ];
    for (const line of cases) {
      expect(JSON.parse(wrappedLine(undefined, "proxy/successor", inbound(line)))).toEqual({ jsonrpc: "2.0", method: "proxy/successor", params: { method: "session/update", params: { a: 1 } } });
      expect(JSON.parse(withId(inbound(line.replace('"method"', '"id":"x","method"')), 3))).toMatchObject({ id: 3, method: "session/update", params: { a: 1 } });
    }
    const meta = '{"jsonrpc":"2.0","id":1,"method":"proxy/successor","params":{"_meta":{"hop":1},"params":{"a":1},"method":"session/prompt"}}';
    expect(unwrappedLine(2, "session/prompt", inner(meta))).toBe('{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"a":1}}');
    const renamed = '{"jsonrpc":"2.0","id":1,"method":"proxy/successor","params":{"method":"initialize","params":{"a":1}}}';
    expect(unwrappedLine(2, "proxy/initialize", inner(renamed))).toBe('{"jsonrpc":"2.0","id":2,"method":"proxy/initialize","params":{"a":1}}');
    expect(renamedLine(2, "proxy/initialize", inbound('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":1}}'))).toBe('{"jsonrpc":"2.0","id":2,"method":"proxy/initialize","params":{"a":1}}');
  });

  it("take a message a transport parsed itself with its own line (its text goes on), else from its canonical encoding", () => {
    const line = '{"method":"session/update","params":{"a":1},"jsonrpc":"2.0"}';
    const given = fromValue(JSON.parse(line), kindOf, line);
    expect(given instanceof Inbound && [given.line, given.method]).toEqual([line, "session/update"]);
    const bare = fromValue(JSON.parse(line), kindOf);
    expect(bare instanceof Inbound && bare.line).toBe('{"jsonrpc":"2.0","method":"session/update","params":{"a":1}}');
    expect(fromValue([1], kindOf, "[1]")).toEqual({ value: [1], kind: undefined });
  });

  it("read a line with a repeated member as JSON.parse does (the last one counts), from its canonical encoding", () => {
    const repeated = inbound('{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"a":1},"params":{"b":2},"id":7}');
    expect([repeated.id, repeated.line]).toEqual([7, '{"jsonrpc":"2.0","id":7,"method":"session/update","params":{"b":2}}']);
    expect(JSON.parse(withId(repeated, 2))).toEqual({ jsonrpc: "2.0", id: 2, method: "session/update", params: { b: 2 } });
    expect(inner('{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"a","method":"b","params":{"c":1}}}')).toEqual({ method: "b", paramsText: '{"c":1}' });
    expect(unwrap(inbound('{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"a","params":5}}'), "proxy/successor")).toBe("proxy/successor params.params must be an object or an array");
    expect(unwrap(inbound('{"jsonrpc":"2.0","method":"proxy/successor","params":[1]}'), "proxy/successor")).toBe("proxy/successor params must be an object with a method");
  });
});
