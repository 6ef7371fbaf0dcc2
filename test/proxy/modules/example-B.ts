// examples/proxy.ts as a proxy module (`conduct --proxy-module`): exampleProxy("B"), as `examples/proxy.ts --name B` runs it.
import { exampleProxy } from "../../../examples/proxy.ts";

export default exampleProxy("B");
