// A hand-written proxy that first sends the conductor a proxy/successor without `method`, keeps the
// conductor's answer, then works properly: initialize goes on through proxy/successor, and its answer
// carries the refusal in `_meta.refused`. Everything else is forwarded both ways by hand.
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
let next = 0;
const waiting = new Map(); // our request id → what to do with its answer
let refused;

createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === undefined) {
    const then = waiting.get(m.id);
    waiting.delete(m.id);
    then?.(m);
    return;
  }
  if (m.method === "proxy/initialize") {
    waiting.set("bad", (answer) => {
      refused = answer.error;
      const id = `p${next++}`;
      waiting.set(id, (a) => send({ id: m.id, result: { ...a.result, _meta: { refused } } }));
      send({ id, method: "proxy/successor", params: { method: "initialize", params: m.params } });
    });
    send({ id: "bad", method: "proxy/successor", params: {} });
    return;
  }
  if (m.method === "proxy/successor") {
    // From the successor: on to the predecessor, unwrapped.
    const { method, params } = m.params;
    if (m.id === undefined) return send({ method, params });
    const id = `p${next++}`;
    waiting.set(id, (a) => send(a.error ? { id: m.id, error: a.error } : { id: m.id, result: a.result }));
    return send({ id, method, params });
  }
  // From the predecessor: on to the successor, wrapped.
  if (m.id === undefined) return send({ method: "proxy/successor", params: { method: m.method, params: m.params } });
  const id = `p${next++}`;
  waiting.set(id, (a) => send(a.error ? { id: m.id, error: a.error } : { id: m.id, result: a.result }));
  send({ id, method: "proxy/successor", params: { method: m.method, params: m.params } });
});
