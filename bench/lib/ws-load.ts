/**
 * The WebSocket counterpart of `sse-load.ts`: a lean load generator on the
 * `ws` package alone (no ACP client library, no validation). Per connection
 * it sends `initialize` and creates `sessions` sessions; a burst sends one
 * `session/prompt` in every session and waits for every answer. Answers are
 * checked (`end_turn`), updates counted.
 */
import { WebSocket } from "ws";
import { createReplies, endedTurns, promptIn, type Answer, type Load } from "./load.ts";

export async function wsLoad(url: string, options: { connections: number; sessions: number }): Promise<Load> {
  const sockets: WebSocket[] = [];
  const replies = createReplies();

  const call = (socket: WebSocket, method: string, params: unknown): Promise<Answer> => {
    const { id, answer } = replies.next();
    socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return answer;
  };

  const sessions: { socket: WebSocket; session: string }[] = [];
  for (let c = 0; c < options.connections; c++) {
    const socket = new WebSocket(url.replace(/^http/, "ws"), { perMessageDeflate: false });
    sockets.push(socket);
    socket.on("error", () => {});
    socket.on("message", (data) => replies.take(JSON.parse(String(data)) as Answer));
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
      return endedTurns(await Promise.all(sessions.map(({ socket, session }) => call(socket, "session/prompt", promptIn(session)))));
    },
    get updates() {
      return replies.updates;
    },
    close() {
      for (const socket of sockets) socket.terminate();
    },
  };
}
