// examples/proxy.ts as a proxy module (`conduct --proxy-module`): exampleProxy("B", false), as `examples/proxy.ts --name B --no-context` runs it.
import { exampleProxy } from "../../../examples/proxy.ts";

export default exampleProxy("B", false);
