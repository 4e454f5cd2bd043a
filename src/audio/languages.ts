/**
 * The language catalogue: the ISO-639-1 codes the override editor offers (`GET /api/languages`) and the
 * ISO-639-3 code franc reports for each, so a detection maps to the spec's two-letter hint. Languages
 * franc cannot tell apart reliably from short text (for example Bosnian and Croatian) keep one entry.
 */
export interface Language {
  code: string;
  name: string;
  iso639_3: string;
}

export const LANGUAGES: readonly Language[] = [
  { code: 'af', name: 'Afrikaans', iso639_3: 'afr' },
  { code: 'ar', name: 'Arabic', iso639_3: 'arb' },
  { code: 'bg', name: 'Bulgarian', iso639_3: 'bul' },
  { code: 'bn', name: 'Bengali', iso639_3: 'ben' },
  { code: 'ca', name: 'Catalan', iso639_3: 'cat' },
  { code: 'cs', name: 'Czech', iso639_3: 'ces' },
  { code: 'cy', name: 'Welsh', iso639_3: 'cym' },
  { code: 'da', name: 'Danish', iso639_3: 'dan' },
  { code: 'de', name: 'German', iso639_3: 'deu' },
  { code: 'el', name: 'Greek', iso639_3: 'ell' },
  { code: 'en', name: 'English', iso639_3: 'eng' },
  { code: 'es', name: 'Spanish', iso639_3: 'spa' },
  { code: 'et', name: 'Estonian', iso639_3: 'est' },
  { code: 'eu', name: 'Basque', iso639_3: 'eus' },
  { code: 'fa', name: 'Persian', iso639_3: 'pes' },
  { code: 'fi', name: 'Finnish', iso639_3: 'fin' },
  { code: 'fr', name: 'French', iso639_3: 'fra' },
  { code: 'ga', name: 'Irish', iso639_3: 'gle' },
  { code: 'gl', name: 'Galician', iso639_3: 'glg' },
  { code: 'he', name: 'Hebrew', iso639_3: 'heb' },
  { code: 'hi', name: 'Hindi', iso639_3: 'hin' },
  { code: 'hr', name: 'Croatian', iso639_3: 'hrv' },
  { code: 'hu', name: 'Hungarian', iso639_3: 'hun' },
  { code: 'id', name: 'Indonesian', iso639_3: 'ind' },
  { code: 'is', name: 'Icelandic', iso639_3: 'isl' },
  { code: 'it', name: 'Italian', iso639_3: 'ita' },
  { code: 'ja', name: 'Japanese', iso639_3: 'jpn' },
  { code: 'ko', name: 'Korean', iso639_3: 'kor' },
  { code: 'lt', name: 'Lithuanian', iso639_3: 'lit' },
  { code: 'lv', name: 'Latvian', iso639_3: 'lvs' },
  { code: 'ms', name: 'Malay', iso639_3: 'zlm' },
  { code: 'nb', name: 'Norwegian Bokmål', iso639_3: 'nob' },
  { code: 'nl', name: 'Dutch', iso639_3: 'nld' },
  { code: 'pl', name: 'Polish', iso639_3: 'pol' },
  { code: 'pt', name: 'Portuguese', iso639_3: 'por' },
  { code: 'ro', name: 'Romanian', iso639_3: 'ron' },
  { code: 'ru', name: 'Russian', iso639_3: 'rus' },
  { code: 'sk', name: 'Slovak', iso639_3: 'slk' },
  { code: 'sl', name: 'Slovenian', iso639_3: 'slv' },
  { code: 'sr', name: 'Serbian', iso639_3: 'srp' },
  { code: 'sv', name: 'Swedish', iso639_3: 'swe' },
  { code: 'sw', name: 'Swahili', iso639_3: 'swh' },
  { code: 'ta', name: 'Tamil', iso639_3: 'tam' },
  { code: 'th', name: 'Thai', iso639_3: 'tha' },
  { code: 'tr', name: 'Turkish', iso639_3: 'tur' },
  { code: 'uk', name: 'Ukrainian', iso639_3: 'ukr' },
  { code: 'ur', name: 'Urdu', iso639_3: 'urd' },
  { code: 'vi', name: 'Vietnamese', iso639_3: 'vie' },
  { code: 'zh', name: 'Chinese', iso639_3: 'cmn' },
];

const byIso3 = new Map(LANGUAGES.map((language) => [language.iso639_3, language.code]));

export const iso639_1Of = (iso639_3: string): string | undefined => byIso3.get(iso639_3);
export const FRANC_CANDIDATES: string[] = LANGUAGES.map((language) => language.iso639_3);

/** `pt-BR`, `pt_br`, `PT` → `pt`: overrides are keyed by the base language. */
export function baseLanguage(code: string): string {
  return code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}
