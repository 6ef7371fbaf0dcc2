// A proxy with no hooks: every message takes the pass-through path (src/proxy/pass.ts) once initialized.
import { serveProxyStdio } from "../../src/proxy/index.ts";

serveProxyStdio();
