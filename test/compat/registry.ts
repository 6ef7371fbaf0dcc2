/**
 * A package registry on loopback that serves one tarball as npm fetches a published package: the
 * package's document (`GET /<name>`: its one version, with the tarball's address and integrity)
 * and the tarball itself. Anything else is 404. For tests that install a packed package as if it
 * were published (published.test.ts); it records what was asked for.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A running registry: its address, the paths it served, and `close`. */
export interface LoopbackRegistry {
  readonly url: string;
  served(): string[];
  close(): Promise<void>;
}

/** Serves `tarball`, whose package.json is `manifest`, at `127.0.0.1` on a free port. */
export async function serveTarball(tarball: string, manifest: { name: string; version: string } & Record<string, unknown>): Promise<LoopbackRegistry> {
  const bytes = readFileSync(tarball);
  const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  const shasum = createHash("sha1").update(bytes).digest("hex");
  const tarballPath = `/${manifest.name}/-/${manifest.name}-${manifest.version}.tgz`;
  const served: string[] = [];
  let base = "";
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0] as string);
    if (req.method === "GET" && path === `/${manifest.name}`) {
      served.push(path);
      const version = { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist: { tarball: `${base}${tarballPath}`, integrity, shasum } };
      const document = { _id: manifest.name, name: manifest.name, "dist-tags": { latest: manifest.version }, versions: { [manifest.version]: version } };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(document));
      return;
    }
    if (req.method === "GET" && path === tarballPath) {
      served.push(path);
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(bytes.length) }).end(bytes);
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    served: () => [...served],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
