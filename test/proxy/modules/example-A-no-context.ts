// examples/proxy.ts as a proxy module (`conduct --proxy-module`): exampleProxy("A", false), as `examples/proxy.ts --name A --no-context` runs it.
import { exampleProxy } from "../../../examples/proxy.ts";

export default exampleProxy("A", false);
