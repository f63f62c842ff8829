/**
 * Text from a file on its way to a terminal. A results file is input like any other: a browser
 * name or adapter id holding ESC or OSC sequences would otherwise set the terminal's title,
 * clear the screen or overwrite a printed line. Every control character becomes a visible
 * escape, so nothing below 0x20 but the newlines the tool itself prints reaches the terminal.
 */

// C0 controls, DEL and the C1 controls (0x80-0x9f, which some terminals obey as ESC sequences).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One field of file text (a name, a cell): every control character escaped, newlines included. */
export function printableField(text: string): string {
  return text.replace(CONTROL, escape);
}

/** A whole block of output: control characters escaped, newlines kept (a CRLF line ending becomes LF). */
export function printable(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL_BUT_NEWLINE, escape);
}
