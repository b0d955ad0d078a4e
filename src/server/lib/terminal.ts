// Text bound for an operator's terminal (the ops CLI). Bank statement descriptions, user names, reasons and
// other text people outside the company wrote must not drive the terminal: an escape sequence can clear
// the screen, move the cursor, rewrite what was printed, set the window title or hide text, and a carriage
// return overwrites the start of a line. So before printing: escape sequences (CSI, OSC, DCS/SOS/PM/APC,
// the two-character ones, and the 8-bit CSI and OSC) are removed whole, then every other control character
// (C0, DEL, C1) and the bidirectional overrides and isolates; letters of every script, marks, symbols and
// spaces stay.

// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;
/** Control characters but newline and tab; bidi embeddings, overrides and isolates (they reorder what is shown). */
const CONTROLS = /[^\P{Cc}\n\t]|[\u202a-\u202e\u2066-\u2069]/gu;
const CONTROLS_ONE_LINE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/** A whole output for the terminal: its own newlines and tabs kept, every escape and other control removed. */
export function terminalText(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '');
}

/** One value printed inside a line (a bank description, a name): as terminalText, and its line breaks and
 *  tabs become spaces, so it cannot start a line of its own that reads like the command's. */
export function terminalValue(text: string): string {
  return text
    .replace(ESCAPES, '')
    .replace(/[\r\n\t\v\f\u2028\u2029\x85]+/g, ' ')
    .replace(CONTROLS_ONE_LINE, '');
}

/** JSON for the terminal (the ops CLI's --json): JSON.stringify escapes C0 controls but leaves DEL, C1
 *  (0x9b is an 8-bit CSI) and the line/paragraph separators and bidi controls raw; they are escaped too, so
 *  the text is the same JSON (JSON.parse gives back the same value) and cannot drive the terminal. */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
