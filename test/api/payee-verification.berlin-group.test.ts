// The same tests once more with the bank in the strict profile: every answer checked against the
// Berlin Group file with the 1.3.16 additions for Verification of Payee (test/support/berlin-group.ts).
process.env.TEST_API_PROFILE = "berlin-group";
await import("./payee-verification.test.js");
