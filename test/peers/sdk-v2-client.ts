// An ACP v2 client built only on the official SDK's experimental v2 API, connected to a spawned agent
// over real stdio. `startSdkV2Client(cmd, args)` returns the SDK's ClientContext (`agent`), every
// session/update it received (`updates`, in arrival order), the permission requests it answered
// (`permissions`, answered with the first option) and `close()`, which ends stdin and resolves with
// the agent's exit.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

export interface SdkV2Client {
  readonly agent: acp.ClientContext;
  readonly updates: acp.UpdateSessionNotification[];
  readonly permissions: acp.RequestPermissionRequest[];
  /** What the agent wrote to stderr so far. */
  stderr(): string;
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startSdkV2Client(command: string, args: readonly string[]): SdkV2Client {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const updates: acp.UpdateSessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const connection = acp
    .client({ name: "sdk-v2-client" })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      const first = params.options[0];
      return { outcome: first ? { outcome: "selected", optionId: first.optionId } : { outcome: "cancelled" } };
    })
    .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params))
    .connect(stream);
  return {
    agent: connection.agent,
    updates,
    permissions,
    stderr: () => stderr,
    async close() {
      connection.close();
      child.stdin.end();
      return exited;
    },
  };
}
