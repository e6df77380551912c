/**
 * Escape sequences planwatch itself sends to the terminal: desktop notifications (OSC 9: iTerm2, WezTerm, kitty,
 * foot, Windows Terminal, Ghostty; OSC 777 `notify`: rxvt-unicode, foot, WezTerm, Ghostty), the bell, and the
 * clipboard (OSC 52). Inside tmux a sequence reaches the outer terminal only wrapped in a DCS passthrough
 * (`ESC P tmux; … ESC \`, every ESC inside doubled; tmux's `allow-passthrough` option must be on), except OSC 52
 * sent as it is, which tmux itself takes when its `set-clipboard` is on (source/cli/terminal-signals.ts). Pure: the
 * text in is sanitized here again, so no object name can end a sequence early or start one of its own.
 */
import {sanitizeLine} from './sanitize.js';

const esc = '\u001B';
const bel = '\u0007';
/** String terminator. */
const st = `${esc}\\`;

export const bell = bel;

/** One line of printable text: no control character (the sanitizer's), no `;` where it separates fields. */
export function notificationText(text: string, max = 200, separators = false): string {
	const line = sanitizeLine(text, max);
	return separators ? line : line.replaceAll(';', ',');
}

/**
 * OSC 9 body: ConEmu and Windows Terminal read `9;<digits>;…` as a command (progress bars, `9;4;…`), so a text
 * that starts with digits and `;` gets a leading space.
 */
export function osc9(text: string): string {
	const body = notificationText(text, 200, true);
	return `${esc}]9;${/^\d+;/.test(body) ? ` ${body}` : body}${bel}`;
}

export function osc777(title: string, body: string): string {
	return `${esc}]777;notify;${notificationText(title, 80)};${notificationText(body, 200)}${bel}`;
}

/** Terminals cap OSC 52 (xterm and tmux at about 100 kB of base64): larger texts are not sent. */
export const maxClipboardBytes = 74_000;

/** Put `text` on the system clipboard (selection `c`); undefined when too large to send. */
export function osc52(text: string): string | undefined {
	const bytes = Buffer.from(text, 'utf8');
	if (bytes.length > maxClipboardBytes) {
		return undefined;
	}

	return `${esc}]52;c;${bytes.toString('base64')}${bel}`;
}

/** Through tmux to the terminal it runs in. */
export function tmuxPassthrough(sequence: string): string {
	return `${esc}Ptmux;${sequence.replaceAll(esc, esc + esc)}${st}`;
}

/** A sequence as it must be written: wrapped when inside tmux (`$TMUX` set). */
export function forTerminal(sequence: string, inTmux: boolean): string {
	return inTmux ? tmuxPassthrough(sequence) : sequence;
}

/** A desktop notification both ways plus the bell (the bell is tmux's own business: never wrapped). */
export function notification(title: string, body: string, inTmux: boolean): string {
	return forTerminal(osc9(`${title}: ${body}`), inTmux) + forTerminal(osc777(title, body), inTmux) + bell;
}
