/** Tests for src/lib/json-body.ts: exact number literals and prototype-poisoning refusal. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { numberRoundTrips, parseJsonBody } from "../../src/lib/json-body.js";

describe("parseJsonBody numbers", () => {
  it("keeps numbers that round-trip through a double as numbers", () => {
    assert.deepEqual(parseJsonBody('{"a":123.45,"b":100,"c":1e2,"d":-0.5,"e":0.1,"f":100.0}'), {
      a: 123.45,
      b: 100,
      c: 100,
      d: -0.5,
      e: 0.1,
      f: 100,
    });
    assert.deepEqual(parseJsonBody("[9007199254740992, 1e21, 5e-324, 1.7976931348623157e308]"), [
      9007199254740992, 1e21, 5e-324, 1.7976931348623157e308,
    ]);
  });

  it("keeps the literal text of numbers a double would round", () => {
    const body = parseJsonBody(
      '{"amount": 1.0000000000000000001, "big": 12345678901234567890, "huge": 1e400, ' +
        '"tiny": 1e-400, "odd": 9007199254740993, "neg": -0.30000000000000000001}',
    );
    assert.deepEqual(body, {
      amount: "1.0000000000000000001",
      big: "12345678901234567890",
      huge: "1e400",
      tiny: "1e-400",
      odd: "9007199254740993",
      neg: "-0.30000000000000000001",
    });
  });

  it("rewrites literals at the top level, in arrays and in nested objects alike", () => {
    assert.equal(parseJsonBody("12345678901234567890"), "12345678901234567890");
    assert.deepEqual(parseJsonBody("[1,12345678901234567890,{\"x\":[1e400]}]"), [
      1,
      "12345678901234567890",
      { x: ["1e400"] },
    ]);
  });

  it("leaves digits inside strings alone, escaped quotes included", () => {
    const text = '{"a":"x\\"12345678901234567890","b":"\\\\","c":12345678901234567890}';
    assert.deepEqual(parseJsonBody(text), {
      a: 'x"12345678901234567890',
      b: "\\",
      c: "12345678901234567890",
    });
  });

  it("finds the literals after strings of any content, quotes and backslashes included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (str) => {
        const text = `{"s":${JSON.stringify(str)},"n":12345678901234567890,"m":[${str.length}]}`;
        const expected = { s: str, n: "12345678901234567890", m: [str.length] };
        assert.deepEqual(parseJsonBody(text), expected);
      }),
    );
    const text = '{"a":"\\\\\\"1e400","b":1e400}'; // a: backslash, quote, 1e400
    assert.deepEqual(parseJsonBody(text), { a: '\\"1e400', b: "1e400" });
  });

  it("compares digits and exponent, not spelling, to decide a round trip", () => {
    for (const literal of ["100", "1e2", "100.0", "1.00e+2", "0.1", "-0", "0.0", "0e7", "1E-7"]) {
      assert.equal(numberRoundTrips(literal), true, literal);
    }
    for (const literal of ["0.10000000000000000001", "1e400", "-1e400", "1e-400", "2e-324"]) {
      assert.equal(numberRoundTrips(literal), false, literal);
    }
  });

  it("comes back with the literal text whenever it has more than 17 significant digits", () => {
    const literal = fc
      .tuple(fc.stringMatching(/^[1-9][0-9]{16,30}[1-9]$/), fc.integer({ min: -40, max: 40 }))
      .map(([digits, exponent]) => `${digits}e${exponent}`);
    fc.assert(
      fc.property(literal, (text) => {
        assert.equal((parseJsonBody(`[${text}]`) as unknown[])[0], text);
      }),
    );
  });

  it("returns a number only when printing it gives back the same decimal value", () => {
    const pattern = /^-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,25})?([eE][+-]?[0-9]{1,3})?$/;
    const literal = fc.stringMatching(pattern);
    fc.assert(
      fc.property(literal, (text) => {
        const value = (parseJsonBody(`[${text}]`) as unknown[])[0];
        if (typeof value === "string") {
          assert.equal(value, text);
          assert.equal(numberRoundTrips(text), false);
        } else {
          assert.equal(value, JSON.parse(text));
          assert.equal(numberRoundTrips(text), true);
        }
      }),
    );
  });
});

describe("parseJsonBody validity", () => {
  it("parses any ordinary JSON exactly like JSON.parse", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        fc.pre(!text.includes("__proto__") && !text.includes("constructor"));
        assert.deepEqual(parseJsonBody(text), JSON.parse(text));
      }),
    );
  });

  it("throws SyntaxError on invalid JSON, even when it holds a literal it would rewrite", () => {
    const invalid = ["", "{", "01", "1.", "-", "[1,]", "{'a':1}", "NaN", "[1 2]", "\"abc"];
    invalid.push("{12345678901234567890: 1}", "{1e400:1}", "[1e400,]", "12345678901234567890x");
    invalid.push('{"a":1,12345678901234567890:2}', "[00012345678901234567890]", "[1e400 1]");
    for (const text of invalid) {
      assert.throws(() => parseJsonBody(text), SyntaxError, text);
    }
  });
});

describe("parseJsonBody prototype poisoning", () => {
  it("throws SyntaxError for a __proto__ or constructor key at any depth", () => {
    const poisoned = [
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"admin":true}}}',
      '{"a":[{"b":{"__proto__":1}}]}',
      '{"\\u005f_proto__":1}',
      '{"\\u0063onstructor":1}',
      '{"amount":12345678901234567890,"__proto__":1}',
    ];
    for (const text of poisoned) {
      assert.throws(() => parseJsonBody(text), SyntaxError, text);
    }
  });

  it("allows those words as string values and inside longer keys", () => {
    assert.deepEqual(parseJsonBody('{"a":"__proto__","b":["constructor"],"constructors":1}'), {
      a: "__proto__",
      b: ["constructor"],
      constructors: 1,
    });
    assert.deepEqual(parseJsonBody('{"caf\\u00e9":"\\u00e9"}'), { café: "é" });
  });
});

describe("parseJsonBody speed", () => {
  it("parses a few-KB payment body in well under a millisecond on average", () => {
    const payment = {
      endToEndIdentification: "E2E-1234567890",
      debtorAccount: { iban: "DE89370400440532013000", currency: "EUR" },
      instructedAmount: { currency: "EUR", amount: "123.45" },
      creditorAccount: { iban: "NL91ABNA0417164300" },
      creditorName: "Example Merchant",
      remittanceInformationUnstructured: "Invoice 2024/17",
    };
    const text = JSON.stringify({ payments: Array.from({ length: 12 }, () => payment), n: 42.5 });
    assert.ok(text.length > 3000);
    const runs = 2000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < runs; i++) parseJsonBody(text);
    const perRunMs = Number(process.hrtime.bigint() - started) / 1e6 / runs;
    assert.ok(perRunMs < 1, `took ${perRunMs} ms per parse`);
  });
});
