/**
 * Text from outside (an API's or a warehouse's error message, a record's value) must not be
 * able to forge a line of our own output: a newline followed by a made-up JSON log line, a
 * carriage return that overwrites what a terminal shows, an escape sequence that clears the
 * screen or sets the clipboard, a right-to-left override (U+202E) or another bidi control
 * that makes a terminal or log viewer show the text reordered, an invisible character (a
 * zero-width space) that makes two different texts look alike. Off a terminal every stderr
 * line is one JSON object (`jsonLine`); on a terminal those characters are shown escaped
 * (`terminalLine`, `terminalMessage`).
 */

/**
 * C0 controls, DEL, C1 controls, the Unicode line and paragraph separators, and the invisible
 * format characters (category Cf: the bidi embeddings, overrides and isolates U+202A-202E and
 * U+2066-2069, the marks U+200E-200F and U+061C, zero-width U+200B-200D, U+2060-2064, U+FEFF).
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
/** The same without the newline, which a multi-line message of ours keeps. */
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
/** What JSON.stringify leaves raw although some readers take it for a line end, a terminal control or a reordering. */
const JSON_RAW_CONTROL = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(char: string): string {
  const code = char.codePointAt(0)!;
  return NAMED[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : unicodeEscape(char));
}

/** `\u202e`; a character beyond U+FFFF as its two UTF-16 halves, as JSON writes it (`\udb40\udc01`). */
function unicodeEscape(char: string): string {
  let text = '';
  for (let i = 0; i < char.length; i++) text += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return text;
}

/**
 * One JSON object on one line, with every control and invisible format character escaped:
 * what aivis prints or writes for a machine (logs, `--json` reports, protocol messages) is
 * built with it, so a line-based reader counts one line per message and `JSON.parse` gives
 * back the exact text.
 */
export function jsonLine(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  return inertJson(JSON.stringify(value, replacer));
}

/**
 * JSON text already written (a stored `_raw`, a record spliced into a message) with the same
 * characters escaped; they can stand only inside its strings, so it parses to the same value.
 */
export function inertJson(text: string): string {
  return text.replace(JSON_RAW_CONTROL, unicodeEscape);
}

/** One line for a terminal: every control character, newlines included, shown escaped (`\n`, `\x1b`). */
export function terminalLine(text: string): string {
  return text.replace(CONTROL, escaped);
}

/**
 * A message that may span lines (a config error lists one problem per line) for a terminal:
 * control characters other than the newline are shown escaped, and every line after the
 * first is indented, so no part of the message can pass for a line of its own.
 */
export function terminalMessage(text: string): string {
  return text.replace(CONTROL_BUT_NEWLINE, escaped).replace(/\n/g, '\n  ');
}
