/**
 * Text from outside (an API's or a warehouse's error message, a record's value) must not be
 * able to forge a line of our own output: a newline followed by a made-up JSON log line, a
 * carriage return that overwrites what a terminal shows, an escape sequence that clears the
 * screen or sets the clipboard. Off a terminal every stderr line is one JSON object
 * (`jsonLine`); on a terminal control characters are shown escaped (`terminalLine`,
 * `terminalMessage`).
 */

/** C0 controls, DEL, C1 controls and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** The same without the newline, which a multi-line message of ours keeps. */
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
/** What JSON.stringify leaves raw although some readers take it for a line end or a terminal control. */
const JSON_RAW_CONTROL = /[\u007f-\u009f\u2028\u2029]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(char: string): string {
  const code = char.charCodeAt(0);
  return (
    NAMED[char] ??
    (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
  );
}

/** One JSON object on one line, with every control character escaped. */
export function jsonLine(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  return JSON.stringify(value, replacer).replace(
    JSON_RAW_CONTROL,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
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
