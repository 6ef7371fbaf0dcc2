/** A throwaway self-signed certificate for 127.0.0.1, made with `openssl` at test time; nothing is committed. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Generates a key and certificate valid for IP 127.0.0.1 and `localhost` for one day. */
export function throwawayCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "acp-remote-tls-"));
  try {
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], {
      stdio: "ignore",
      timeout: 20_000,
    });
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
