// The PSU's pages once more with the bank in the strict profile: the way back to the TPP after
// Confirm, Cancel and Cancel on the login page holds whichever dialect created the resource.
process.env.TEST_API_PROFILE = "berlin-group";
await import("./pages.test.js");
