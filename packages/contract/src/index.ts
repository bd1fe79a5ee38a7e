export * from "./common.ts";
export * from "./errors.ts";
export * from "./money.ts";
export * from "./operation.ts";
export * from "./operations/buy-order-status.ts";
export * from "./operations/sandbox.ts";
export * from "./operations/wallet.ts";
export * from "./operations/web-account.ts";
export { OPERATIONS } from "./operations/all.ts";
