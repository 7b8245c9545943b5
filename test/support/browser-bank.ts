/**
 * A real chromium and a bank for a browser test file. Without chromium the file fails at once,
 * saying what to install; the two start one after the other, because a bank started beside a
 * browser that failed would be left open.
 */
import { after, before } from "node:test";
import { launchChromium, requireChromium, type RealBrowser } from "./chromium.js";
import { startBank, type TestBank } from "./start-app.js";

export async function chromiumAndBank(
  started: (both: { chromium: RealBrowser; bank: TestBank }) => void,
): Promise<void> {
  await requireChromium();
  let chromium: RealBrowser | undefined;
  let bank: TestBank | undefined;
  before(async () => {
    chromium = await launchChromium();
    bank = await startBank();
    started({ chromium, bank });
  });
  after(async () => { await Promise.all([chromium?.close(), bank?.close()]); });
}
