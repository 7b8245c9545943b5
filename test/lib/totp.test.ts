/** Tests for src/lib/totp.ts against RFC 4648, RFC 4226 and RFC 6238 test vectors. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  base32Decode,
  base32Encode,
  hotp,
  totpAt,
  totpProvisioningUri,
  verifyTotp,
} from "../../src/lib/totp.js";

const RFC_SECRET = new TextEncoder().encode("12345678901234567890");
const RFC_SECRET_BASE32 = base32Encode(RFC_SECRET);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("base32", () => {
  it("encodes the RFC 4648 test vectors without padding", () => {
    const vectors: [string, string][] = [
      ["", ""],
      ["f", "MY"],
      ["fo", "MZXQ"],
      ["foo", "MZXW6"],
      ["foob", "MZXW6YQ"],
      ["fooba", "MZXW6YTB"],
      ["foobar", "MZXW6YTBOI"],
    ];
    for (const [plain, encoded] of vectors) {
      assert.equal(base32Encode(bytes(plain)), encoded);
      assert.deepEqual(base32Decode(encoded), bytes(plain));
    }
    assert.equal(RFC_SECRET_BASE32, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  });

  it("decodes lower case, spaces and '=' padding as people paste them", () => {
    assert.deepEqual(base32Decode("mzxw6ytboi======"), bytes("foobar"));
    assert.deepEqual(base32Decode("MZXW 6YTB OI"), bytes("foobar"));
    assert.deepEqual(base32Decode("MY======"), bytes("f"));
  });

  it("throws on characters outside the alphabet, including '=' before the end", () => {
    for (const text of ["MZXW1", "MZXW0", "MZXW8", "MZ=XW", "MZXW-6", "MZ\u00c4"]) {
      assert.throws(() => base32Decode(text), SyntaxError, text);
    }
  });

  it("decodes whatever it encodes, as upper-case unpadded text", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (data) => {
        const text = base32Encode(data);
        assert.match(text, /^[A-Z2-7]*$/);
        assert.equal(text.length, Math.ceil((data.length * 8) / 5));
        assert.deepEqual(base32Decode(text), data);
        assert.deepEqual(base32Decode(text.toLowerCase()), data);
      }),
    );
  });
});

describe("hotp", () => {
  it("matches the RFC 4226 appendix D values", () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922"];
    expected.push("162583", "399871", "520489");
    expected.forEach((code, counter) => {
      assert.equal(hotp(RFC_SECRET, BigInt(counter)), code);
    });
  });

  it("refuses counters outside 0..2^64-1 and digit counts outside 1..10", () => {
    assert.throws(() => hotp(RFC_SECRET, -1n), RangeError);
    assert.throws(() => hotp(RFC_SECRET, 1n << 64n), RangeError);
    assert.throws(() => hotp(RFC_SECRET, 0n, 0), RangeError);
    assert.throws(() => hotp(RFC_SECRET, 0n, 11), RangeError);
    assert.equal(hotp(RFC_SECRET, (1n << 64n) - 1n).length, 6);
  });
});

describe("totpAt", () => {
  it("matches the RFC 6238 appendix B SHA-1 values with 8 digits", () => {
    const vectors: [number, string][] = [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1111111111, "14050471"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
      [20000000000, "65353130"],
    ];
    for (const [seconds, code] of vectors) {
      assert.equal(totpAt(RFC_SECRET_BASE32, seconds * 1000, 30, 8), code, String(seconds));
    }
  });

  it("gives 6 digits over 30 second steps by default", () => {
    assert.equal(totpAt(RFC_SECRET_BASE32, 59_000), "287082");
    assert.equal(totpAt(RFC_SECRET_BASE32, 30_000), totpAt(RFC_SECRET_BASE32, 59_999));
  });
});

describe("verifyTotp", () => {
  const now = 1_111_111_111_000;
  const step = BigInt(Math.floor(now / 30_000));
  const codeAt = (offsetSteps: number): string =>
    totpAt(RFC_SECRET_BASE32, now + offsetSteps * 30_000);

  it("returns the time step of a code from the current step", () => {
    assert.equal(verifyTotp(RFC_SECRET_BASE32, codeAt(0), now), step);
  });

  it("accepts the neighbouring steps within the default window of one", () => {
    assert.equal(verifyTotp(RFC_SECRET_BASE32, codeAt(-1), now), step - 1n);
    assert.equal(verifyTotp(RFC_SECRET_BASE32, codeAt(1), now), step + 1n);
  });

  it("refuses codes two steps away unless the window is widened", () => {
    assert.equal(verifyTotp(RFC_SECRET_BASE32, codeAt(-2), now), null);
    assert.equal(verifyTotp(RFC_SECRET_BASE32, codeAt(-2), now, 2), step - 2n);
    assert.equal(verifyTotp(RFC_SECRET_BASE32, codeAt(1), now, 0), null);
  });

  it("refuses malformed codes and codes for another secret", () => {
    for (const code of ["", "12345", "1234567", "abcdef", " 123456", "12345\u0661"]) {
      assert.equal(verifyTotp(RFC_SECRET_BASE32, code, now), null, code);
    }
    const other = base32Encode(bytes("another secret of 20"));
    assert.equal(verifyTotp(other, codeAt(0), now, 0), null);
  });

  it("does not look at steps before the epoch", () => {
    assert.equal(verifyTotp(RFC_SECRET_BASE32, totpAt(RFC_SECRET_BASE32, 0), 0), 0n);
  });

  it("finds the step of the code it generated, for any secret and time", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 10, maxLength: 32 }),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        (secret, time) => {
          const encoded = base32Encode(secret);
          const found = verifyTotp(encoded, totpAt(encoded, time), time);
          assert.notEqual(found, null);
          // Another step may share the code by chance; it must then produce the same code.
          assert.equal(totpAt(encoded, Number(found) * 30_000), totpAt(encoded, time));
        },
      ),
    );
  });
});

describe("totpProvisioningUri", () => {
  it("builds the otpauth key URI authenticator apps scan", () => {
    assert.equal(
      totpProvisioningUri("jbsw y3dp ehpk 3pxp", "Example Bank", "alice@example.com"),
      "otpauth://totp/Example%20Bank:alice%40example.com?secret=JBSWY3DPEHPK3PXP" +
        "&issuer=Example%20Bank&algorithm=SHA1&digits=6&period=30",
    );
  });

  it("percent-encodes a colon inside issuer or account so the label stays unambiguous", () => {
    const uri = totpProvisioningUri("JBSWY3DPEHPK3PXP", "A:B", "c:d");
    assert.ok(uri.startsWith("otpauth://totp/A%3AB:c%3Ad?"));
  });

  it("throws for a secret that is not base32", () => {
    assert.throws(() => totpProvisioningUri("not base32!", "Bank", "bob"), SyntaxError);
  });
});
