/** `acp-router inspect report <trace.ndjson> -o <report.html>`: not built yet. */
export async function reportMain(_argv: readonly string[]): Promise<number> {
  process.stderr.write("acp-router inspect report: not available yet\n");
  return 2;
}
