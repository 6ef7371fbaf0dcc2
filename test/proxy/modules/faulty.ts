// A hosted proxy whose prompt hook fails on demand: "throw" throws, "reject" rejects, "refuse" throws an RpcError
// (its own answer, passed on as it is); any other prompt is forwarded.
import { defineProxy, RpcError } from "../../../src/proxy/index.ts";

export default defineProxy({
  fromClient: {
    prompt(params, { forward }) {
      const text = params.prompt[0]?.type === "text" ? params.prompt[0].text : "";
      if (text === "throw") throw new Error("the hook threw");
      if (text === "reject") return Promise.reject(new Error("the hook rejected"));
      if (text === "refuse") throw new RpcError(-32042, "refused by the proxy");
      return forward(params);
    },
  },
});
