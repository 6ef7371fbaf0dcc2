/**
 * A bare byte relay process, the inspect figure's baseline: spawns the
 * agent command given as its arguments and copies its own stdin to the
 * agent's stdin and the agent's stdout to its own stdout with `pipe()`
 * (flow control included), parsing and observing nothing; stderr is
 * inherited. What the extra process hop alone costs on this machine.
 *
 *   node --import tsx bench/lib/relay.ts <agent command…>
 */
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write("usage: relay.ts <agent command…>\n");
  process.exit(2);
}
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on("error", (error) => {
  process.stderr.write(`relay: cannot start ${command}: ${error.message}\n`);
  process.exit(1);
});
child.on("close", (code) => process.exit(code ?? 1));
