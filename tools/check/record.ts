/**
 * `check --record FILE`: every line of every run of one check (the main run,
 * the capabilities run, the version probes), both directions, in inspect's
 * recording format (tools/inspect/recording.ts), so `acp-router report` and
 * `replay` read it too. Each run starts with its own start line, naming the
 * run and the command. Evidence that quotes a line longer than 2 KB quotes
 * its first 2 KB and names the line of this file that holds the whole line.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { Observed } from "../inspect/monitor.ts";
import { recordLines, startLine } from "../inspect/recording.ts";

/** Appends a check's traffic to one file and tells each message's line number (1-based). */
export interface Recorder {
  /** The file, as given. */
  readonly file: string;
  /** Writes the start line of a run. */
  start(command: readonly string[], label: string): void;
  /** Records one observed message (and the violations found on it); returns the file line that holds the message. */
  message(observed: Observed, text: string): number;
  close(): void;
}

/** Opens `file` (truncated) for recording. */
export function createRecorder(file: string): Recorder {
  const fd = openSync(file, "w");
  let lines = 0;
  const write = (text: string) => {
    writeSync(fd, text);
    lines += text.split("\n").length - 1;
  };
  return {
    file,
    start(command, label) {
      write(startLine([`(${label})`, ...command], new Date()));
    },
    message(observed, text) {
      const at = lines + 1;
      write(recordLines(observed, text));
      return at;
    },
    close() {
      closeSync(fd);
    },
  };
}
