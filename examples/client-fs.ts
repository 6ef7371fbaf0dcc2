/**
 * The example client's `fs/read_text_file` and `fs/write_text_file`: the
 * local disk, restricted to the session's working directory. Paths must be
 * absolute; a path outside the session's cwd (symlinks resolved) is answered
 * `-32602` (invalid params), a missing file `-32002` (resource not found).
 */
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { RpcError, type ReadTextFileRequest, type ReadTextFileResponse, type WriteTextFileRequest, type WriteTextFileResponse } from "../src/index.ts";

export interface FsHandlers {
  readTextFile(params: ReadTextFileRequest): Promise<ReadTextFileResponse>;
  writeTextFile(params: WriteTextFileRequest): Promise<WriteTextFileResponse>;
}

/** `cwdOf(sessionId)` is the session's working directory, undefined for a session this client did not open. */
export function createFsHandlers(cwdOf: (sessionId: string) => string | undefined): FsHandlers {
  return {
    async readTextFile(params) {
      const path = await resolveInside(cwdOf, params.sessionId, params.path);
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch {
        throw RpcError.resourceNotFound(params.path);
      }
      return { content: sliceLines(text, params.line ?? undefined, params.limit ?? undefined) };
    },
    async writeTextFile(params) {
      const path = await resolveInside(cwdOf, params.sessionId, params.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, params.content, "utf8");
      return {};
    },
  };
}

/** Lines `line` (1-based, default 1) to `line + limit - 1` (default: to the end) of `text`. */
export function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const start = Math.max((line ?? 1) - 1, 0);
  const lines = text.split("\n");
  return lines.slice(start, limit === undefined ? undefined : start + Math.max(limit, 0)).join("\n");
}

/** The real path of `path` if it lies inside the session's cwd, else an RpcError. */
async function resolveInside(cwdOf: (sessionId: string) => string | undefined, sessionId: string, path: string): Promise<string> {
  const cwd = cwdOf(sessionId);
  if (cwd === undefined) throw RpcError.resourceNotFound(`session:${sessionId}`);
  if (!isAbsolute(path)) throw RpcError.invalidParams({ path, reason: "path must be absolute" });
  const root = await realpath(cwd);
  const real = await realpathOfNearest(path);
  const rel = relative(root, real);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw RpcError.invalidParams({ path, reason: `outside the session's working directory ${cwd}` });
  }
  return real;
}

/** realpath of `path`, or of its nearest existing ancestor joined with the rest (for files not yet written). */
async function realpathOfNearest(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return join(await realpathOfNearest(parent), basename(path));
  }
}
