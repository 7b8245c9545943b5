/** XML parsing refuses declarations (XXE, billion laughs) and malformed text; builds escaped text. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildXml, parseXml, XmlRefused } from "../../../src/api/xml/xml.js";

const XXE = `<?xml version="1.0"?>
<!DOCTYPE Document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Document><Nm>&xxe;</Nm></Document>`;

const LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<lolz>&lol2;</lolz>`;

function refusal(text: string): XmlRefused {
  try {
    parseXml(text);
  } catch (error) {
    assert.ok(error instanceof XmlRefused, String(error));
    return error;
  }
  assert.fail(`accepted: ${text}`);
}

test("a DOCTYPE or ENTITY declaration is refused before parsing, in any letter case", () => {
  for (const text of [XXE, LAUGHS, XXE.replace("DOCTYPE", "doctype"), "<a><!ENTITY x 'y'></a>"]) {
    assert.equal(refusal(text).declaration, true, text);
  }
});

test("text that is not one well-formed element is refused with the line of the fault", () => {
  for (const text of ["", "hello", "<a><b>1</a>", "<a/><b/>", "<a>&unknown</a>"]) {
    const error = refusal(text);
    assert.equal(error.declaration, false, text);
    assert.match(error.message, /not well-formed XML/);
  }
});

test("names lose their namespace prefix and declarations, values stay text, predefined references are read", () => {
  const parsed = parseXml(`<?xml version="1.0" encoding="UTF-8"?>
<p:Document xmlns:p="urn:x"><p:Amt Ccy="EUR">0010.50</p:Amt><p:Nm>A &amp; B &#x263A;</p:Nm>
<p:Nm>&lt;&amp;lt;&gt;</p:Nm></p:Document>`);
  assert.deepEqual(parsed, {
    Document: {
      Amt: { "#text": "0010.50", "@_Ccy": "EUR" },
      Nm: ["A & B \u263a", "<&lt;>"],
    },
  });
});

test("building escapes text and attributes, and what is built parses back the same", () => {
  const tree = { Document: { "@_xmlns": "urn:x", Nm: "A & <B> \"c\"", Amt: { "#text": "1.00", "@_Ccy": "E&R" } } };
  const text = buildXml(tree);
  assert.match(text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<Document xmlns="urn:x">/);
  assert.ok(!text.includes("A & <B>"), text);
  const { "@_xmlns": _namespace, ...rest } = tree.Document;
  assert.deepEqual(parseXml(text), { Document: rest });
});
