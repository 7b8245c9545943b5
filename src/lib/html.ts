/**
 * HTML as escaped template literals: every interpolated value is escaped unless it is already
 * rendered Html, so markup can only come from the template itself.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class Html {
  constructor(readonly text: string) {}
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    const rendered = Array.isArray(value)
      ? value.map((v) => (v instanceof Html ? v.text : escapeHtml(String(v)))).join("")
      : value instanceof Html ? value.text : escapeHtml(String(value ?? ""));
    out += rendered + (strings[i + 1] ?? "");
  });
  return new Html(out);
}
