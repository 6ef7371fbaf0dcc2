/**
 * Buffered text outputs of the tools (live trace, recording): writes are
 * gathered and flushed once per event-loop turn, so the forwarding path pays
 * for one string concatenation per message, never for a file write.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { isatty } from "node:tty";

export interface TextOutput {
  write(text: string): void;
  /** Writes what is buffered, synchronously, and closes the file (not stderr). */
  close(): void;
  /** True when the output is a terminal (colours are then used). */
  readonly tty: boolean;
}

/** Opens `path` for writing (truncating), or stderr for `-`. */
export function openOutput(path: string): TextOutput {
  const fd = path === "-" ? 2 : openSync(path, "w");
  let buffer = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer.length === 0) return;
    const text = buffer;
    buffer = "";
    writeAll(fd, text);
  };
  return {
    tty: isatty(fd) && process.env.NO_COLOR === undefined,
    write(text) {
      buffer += text;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    close() {
      flush();
      if (fd !== 2) closeSync(fd);
    },
  };
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue;
      throw error;
    }
  }
}
