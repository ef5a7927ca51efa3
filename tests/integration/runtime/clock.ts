// The platform's tests use the test kit's clock (lib/sdk/test-clock.ts, part of parley/testing).
export * from "@/lib/sdk/test-clock";
