#!/usr/bin/env node
/**
 * The agent command `check --client` puts in place of `{agent}`: connects its
 * stdio to the agent living in the check process, over a loopback TCP port
 * (`node bridge.mjs PORT`, 127.0.0.1 only). stdin goes to the socket and the
 * socket to stdout, byte for byte. EOF on stdin half-closes the socket (the
 * check sees the client close the agent's stdin); the bridge exits when the
 * check closes its side (the agent "exits"), or with status 1 when the
 * connection fails. It ignores SIGINT: check sends that to the client's
 * process group as a user's Ctrl-C, and the agent must live on to receive the
 * client's session/cancel. Plain JavaScript, so it starts without a TypeScript loader.
 */
import { connect } from "node:net";

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  process.stderr.write("usage: bridge.mjs PORT\n");
  process.exit(2);
}
const socket = connect({ host: "127.0.0.1", port });
socket.on("error", (error) => {
  process.stderr.write(`acp-router check --client bridge: ${error.message}\n`);
  process.exit(1);
});
socket.on("connect", () => {
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
});
socket.on("close", () => process.exit(0));
process.on("SIGINT", () => undefined);
process.stdout.on("error", () => undefined); // EPIPE from a client that went away; the socket's close ends the bridge
