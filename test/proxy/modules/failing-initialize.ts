// A hosted proxy whose initialize hook fails: the chain it is in cannot start.
import { defineProxy } from "../../../src/proxy/index.ts";

export default defineProxy({
  fromClient: {
    initialize() {
      throw new Error("no initialize today");
    },
  },
});
