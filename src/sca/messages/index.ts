/** The languages of the PSU pages and message lookup with {placeholder} filling. */
import { isLanguage, type Language } from "../../lib/languages.js";
import { de } from "./de.js";
import { en, type Catalogue, type MessageKey } from "./en.js";
import { es } from "./es.js";
import { fr } from "./fr.js";
import { it } from "./it.js";
import { nl } from "./nl.js";

export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en, de, fr, it, es, nl };
export type { Catalogue, MessageKey };

/**
 * The page language: the first supported of the explicit choices (the link's `lang`, the
 * switcher's cookie, the session's), else the browser's Accept-Language, else English.
 */
export function pickLanguage(...choices: (string | undefined)[]): Language {
  return choices.find(isLanguage) ?? "en";
}

export type Translate = (key: MessageKey, values?: Record<string, string>) => string;

export function translator(lang: string): Translate {
  const catalogue = CATALOGUES[pickLanguage(lang)];
  return (key, values = {}) =>
    catalogue[key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}
