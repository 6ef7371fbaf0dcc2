/** `acp-router inspect replay <trace.ndjson> -- <agent command…>`: not built yet. */
export async function replayMain(_argv: readonly string[], _command: readonly string[]): Promise<number> {
  process.stderr.write("acp-router inspect replay: not available yet\n");
  return 2;
}
