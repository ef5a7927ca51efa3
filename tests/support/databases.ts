// The platform's tests use the test kit's databases (lib/sdk/test-databases.ts, part of parley/testing).
export * from "@/lib/sdk/test-databases";
