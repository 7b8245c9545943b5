/** The languages of the PSU pages and message lookup with {placeholder} filling. */
import { de } from "./de.js";
import { en, type Catalogue, type MessageKey } from "./en.js";

export const CATALOGUES: Readonly<Record<string, Catalogue>> = { en, de };
export type { Catalogue, MessageKey };

export function pickLanguage(requested: string | undefined): string {
  return requested !== undefined && requested in CATALOGUES ? requested : "en";
}

export type Translate = (key: MessageKey, values?: Record<string, string>) => string;

export function translator(lang: string): Translate {
  const catalogue = CATALOGUES[pickLanguage(lang)] ?? en;
  return (key, values = {}) =>
    catalogue[key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}
