// examples/proxy.ts as a proxy module (`conduct --proxy-module`): exampleProxy("P"), as `examples/proxy.ts --name P` runs it.
import { exampleProxy } from "../../../examples/proxy.ts";

export default exampleProxy("P");
