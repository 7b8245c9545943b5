/**
 * The languages the PSU pages speak, and HTTP language negotiation (RFC 9110 Accept-Language)
 * against them. Here in lib/ because the API picks the language of the redirect link and the
 * PSU pages render it; neither may import the other.
 */
export const LANGUAGES = ["en", "de", "fr", "it", "es", "nl"] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: string | undefined): value is Language {
  return (LANGUAGES as readonly string[]).includes(value ?? "");
}

/** The supported language the header ranks highest (by q, then order), or undefined. */
export function negotiateLanguage(header: string | undefined): Language | undefined {
  const ranked = (header ?? "").split(",").flatMap((part, order) => {
    const [tag = "", ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const primary = tag.trim().toLowerCase().split("-")[0];
    const weight = q === undefined ? 1 : Number(q);
    return isLanguage(primary) && weight > 0 ? [{ language: primary, weight, order }] : [];
  });
  ranked.sort((a, b) => b.weight - a.weight || a.order - b.order);
  return ranked[0]?.language;
}
