/**
 * SGR colour for text output, by semantic role. Only SGR (never cursor movement); with `color: false` text is
 * returned untouched, so --no-color / NO_COLOR / non-TTY output holds no ESC byte at all.
 */
import type {StatusLook} from '../model/status.js';

export type PaintRole = StatusLook['role'] | 'strong';

// 16-colour codes: the terminal's palette keeps them readable on dark and light backgrounds.
const open: Record<PaintRole, string> = {
	success: '\u001B[32m',
	running: '\u001B[36m',
	warning: '\u001B[33m',
	error: '\u001B[31m',
	muted: '\u001B[2m',
	unknown: '\u001B[35m',
	strong: '\u001B[1m',
};

const close: Record<PaintRole, string> = {
	success: '\u001B[39m',
	running: '\u001B[39m',
	warning: '\u001B[39m',
	error: '\u001B[39m',
	muted: '\u001B[22m',
	unknown: '\u001B[39m',
	strong: '\u001B[22m',
};

export type Paint = (role: PaintRole, text: string) => string;

export function createPaint(color: boolean): Paint {
	return color ? (role, text) => (text === '' ? text : open[role] + text + close[role]) : (_role, text) => text;
}
