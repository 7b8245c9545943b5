// The same tests once more with the bank in the strict profile: every answer checked against the
// Berlin Group file, nulls absent, links {"href"} (TEST_API_PROFILE, test/support/start-app.ts).
process.env.TEST_API_PROFILE = "berlin-group";
await import("./authorisation-confirmation.test.js");
