// examples/proxy.ts as a proxy module (`conduct --proxy-module`): exampleProxy("A"), as `examples/proxy.ts --name A` runs it.
import { exampleProxy } from "../../../examples/proxy.ts";

export default exampleProxy("A");
