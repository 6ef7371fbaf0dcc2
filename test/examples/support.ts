/** Helpers for the example tests: paths, and waiting with deadlines that turn a hang into a readable failure. */
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
export const exampleAgentPath = fileURLToPath(new URL("../../examples/agent.ts", import.meta.url));
export const exampleClientPath = fileURLToPath(new URL("../../examples/client.ts", import.meta.url));
export const sdkAgentPath = fileURLToPath(new URL("../peers/sdk-agent.ts", import.meta.url));

/** Resolves once `condition()` holds; rejects naming `label` after `ms` (default 5000). */
export async function until(condition: () => boolean, label: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Settles like `promise`, or rejects naming `label` after `ms`. */
export function within<T>(promise: Promise<T>, label: string, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${label}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
