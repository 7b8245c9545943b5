/** `psd2-bank psu ...`: the operator's PSU administration. */
import { parseArgs } from "node:util";
import type { Administration } from "../app/administration.js";
import { OperatorError } from "../domain/kernel/errors.js";
import qrcode from "qrcode-terminal";
import { generatePassword } from "../domain/administration/psus.js";
import { print, required, table, usageEntry } from "./output.js";

export const PSU_USAGE = [
  usageEntry("psu list", "PSUs with status and devices"),
  usageEntry("psu add --login L --name N [--password P]",
    "enrol a PSU (a password is generated when none is given)"),
  usageEntry("psu block L | psu unblock L", "block a PSU, or unblock (also ends a lockout)"),
  usageEntry("psu reset-password L [--password P]",
    "set a new password (generated when none is given)"),
  usageEntry("psu remove-demo",
    "retire the demo, sandbox and scale-test PSUs (logins, passwords, devices); accounts stay"),
  usageEntry("psu enrol-device L --kind totp|sms [--phone +49...]",
    "add an SCA device; TOTP prints its provisioning URI and QR code"),
].join("\n");

const qr = (text: string) =>
  new Promise<string>((resolve) => qrcode.generate(text, { small: true }, resolve));

export async function psuCommand(admin: Administration, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, options: {
      json: { type: "boolean" }, login: { type: "string" }, name: { type: "string" },
      password: { type: "string" }, kind: { type: "string" }, phone: { type: "string" },
    },
  });
  const [action, login] = positionals;
  const psus = admin.psus;
  switch (action) {
    case "list": {
      const list = await psus.list();
      return print(values.json, list, () => table(
        ["login", "name", "status", "blocked until", "failures", "devices"],
        list.map((p) => [p.login, p.name, p.status, p.blockedUntil ?? "",
          String(p.failedAttempts), p.devices.join(", ")])));
    }
    case "add": {
      const password = values.password ?? generatePassword();
      const psu = await psus.add({
        login: required(values.login, "--login"), name: required(values.name, "--name"), password,
      });
      const shown = values.password ? undefined : password;
      return print(values.json, { login: psu.login, name: psu.name, password: shown },
        () => `Added PSU ${psu.login} (${psu.name}).`
          + `${shown ? `\nInitial password: ${shown}` : ""}\n`);
    }
    case "block":
    case "unblock":
      await psus.setBlocked(required(login, "the PSU's login"), action === "block");
      return print(values.json, { login, status: action === "block" ? "blocked" : "enabled" },
        () => `PSU ${login} ${action === "block" ? "blocked" : "unblocked"}.\n`);
    case "reset-password": {
      const password = values.password ?? generatePassword();
      await psus.resetPassword(required(login, "the PSU's login"), password);
      const shown = values.password ? undefined : password;
      return print(values.json, { login, password: shown },
        () => `New password set for ${login}.${shown ? `\nPassword: ${shown}` : ""}\n`);
    }
    case "remove-demo": {
      const removed = await psus.removeDemo();
      return print(values.json, { removed }, () => removed.length === 0
        ? "No demo or sandbox PSUs; nothing removed.\n"
        : `Removed ${removed.length} demo or sandbox PSUs: ${removed.join(", ")}.\n`);
    }
    case "enrol-device": {
      const kind = values.kind;
      if (kind !== "totp" && kind !== "sms") throw new OperatorError("--kind must be totp or sms");
      const device = kind === "totp"
        ? { kind } as const
        : { kind, phone: required(values.phone, "--phone") } as const;
      const { device: enrolled, provisioningUri } =
        await psus.enrolDevice(required(login, "the PSU's login"), device);
      if (values.json) {
        return print(true, { login, device: enrolled.label, provisioningUri }, () => "");
      }
      process.stdout.write(`Enrolled "${enrolled.label}" for ${login}.\n`);
      if (provisioningUri) {
        process.stdout.write("Scan with an authenticator app, or enter the URI:\n"
          + `${await qr(provisioningUri)}\n${provisioningUri}\n`);
      }
      return;
    }
    default:
      throw new OperatorError("psu needs one of: list, add, block, unblock, reset-password, "
        + `enrol-device\n${PSU_USAGE}`);
  }
}
