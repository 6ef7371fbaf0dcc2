/**
 * Whether these tests run with `@agentclientprotocol/sdk` replaced by the compatibility package
 * (`npm run test:sdk-compat`, compat/sdk/vitest.config.ts). The few assertions that pin the real
 * SDK's behaviour where the spec says otherwise assert the package's behaviour instead, as
 * docs/sdk-drop-in.md lists it.
 */
export const onSdkDropIn = process.env.ACP_SDK_DROP_IN === "1";
