// examples/proxy.ts as a proxy module (`conduct --proxy-module`): exampleProxy("P", false), as `examples/proxy.ts --name P --no-context` runs it.
import { exampleProxy } from "../../../examples/proxy.ts";

export default exampleProxy("P", false);
