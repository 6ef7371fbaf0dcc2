/**
 * The WebSocket counterpart of `sse-load.ts`: a lean load generator on the
 * `ws` package alone (no ACP client library, no validation). Per connection
 * it sends `initialize` and creates `sessions` sessions; a burst sends one
 * `session/prompt` in every session and waits for every answer. Answers are
 * checked (`end_turn`), updates counted.
 */
import { WebSocket } from "ws";
import type { Load } from "./sse-load.ts";

interface Answer {
  readonly id?: number;
  readonly method?: string;
  readonly result?: { sessionId?: string; stopReason?: string };
}

export async function wsLoad(url: string, options: { connections: number; sessions: number }): Promise<Load> {
  const sockets: WebSocket[] = [];
  const pending = new Map<number, (answer: Answer) => void>();
  let nextId = 1;
  let updates = 0;

  const call = (socket: WebSocket, method: string, params: unknown): Promise<Answer> => {
    const id = nextId++;
    const answer = new Promise<Answer>((resolve) => pending.set(id, resolve));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return answer;
  };

  const sessions: { socket: WebSocket; session: string }[] = [];
  for (let c = 0; c < options.connections; c++) {
    const socket = new WebSocket(url.replace(/^http/, "ws"), { perMessageDeflate: false });
    sockets.push(socket);
    socket.on("error", () => {});
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as Answer;
      if (message.method === "session/update") updates++;
      else if (message.method === undefined && typeof message.id === "number") {
        const settle = pending.get(message.id);
        pending.delete(message.id);
        settle?.(message);
      }
    });
    await new Promise<void>((resolve, reject) => socket.once("open", resolve).once("error", reject));
    await call(socket, "initialize", { protocolVersion: 1, clientCapabilities: {} });
    for (let s = 0; s < options.sessions; s++) {
      const created = await call(socket, "session/new", { cwd: "/", mcpServers: [] });
      const session = created.result?.sessionId;
      if (typeof session !== "string") throw new Error(`session/new: ${JSON.stringify(created)}`);
      sessions.push({ socket, session });
    }
  }

  return {
    async burst() {
      const answers = await Promise.all(sessions.map(({ socket, session }) => call(socket, "session/prompt", { sessionId: session, prompt: [{ type: "text", text: "hi" }] })));
      for (const answer of answers) if (answer.result?.stopReason !== "end_turn") throw new Error(`session/prompt: ${JSON.stringify(answer)}`);
      return answers.length;
    },
    get updates() {
      return updates;
    },
    close() {
      for (const socket of sockets) socket.terminate();
    },
  };
}
