import type {NodeState} from '../model/plan-tree.js';
import {asciiLineBreakMarker, lineBreakMarker} from '../model/sanitize.js';
import {statusLook, type StatusLook} from '../model/status.js';

/** Semantic roles a view can ask for. Components never name a colour themselves (gemini-cli's semantic tokens). */
export type Role = StatusLook['role'] | 'text' | 'accent';

/** How a role is drawn: props for Ink's `<Text>`. Empty = the terminal's default foreground. */
export type RoleStyle = {readonly color?: string; readonly dimColor?: boolean};

/** Glyphs that have an ASCII fallback. */
export type Glyphs = {
	readonly expanded: string;
	readonly collapsed: string;
	/** Marks the deferPhase of a Kanister action ("always runs"). */
	readonly defer: string;
	/** Left of the selected row; colour is never the only sign of the cursor. */
	readonly cursor: string;
	readonly moreAbove: string;
	readonly moreBelow: string;
	readonly separator: string;
	readonly ellipsis: string;
	readonly live: string;
	readonly timeout: string;
	/** What a line break inside one-line text reads as (the sanitizer's marker, or its ASCII form). */
	readonly lineBreak: string;
	/** Before a duration that is only a lower bound (the start was not seen): `≥6m30s`. */
	readonly atLeast: string;
};

export type Theme = {
	readonly color: boolean;
	readonly ascii: boolean;
	readonly glyphs: Glyphs;
	style(role: Role): RoleStyle;
	/** Icon of a node state (ASCII: `[ok]`, `[XX]`…). */
	icon(state: NodeState): string;
	/** Whether running nodes get an animated spinner (never in ASCII mode). */
	readonly spinner: boolean;
	/** IANA zone every clock time of the view is shown in (undefined: the machine's); the header names it. */
	readonly timeZone?: string;
};

// Basic 16-colour names: the terminal's palette maps them, so they stay readable on dark and light backgrounds.
const palette: Record<Role, RoleStyle> = {
	success: {color: 'green'},
	running: {color: 'cyan'},
	warning: {color: 'yellow'},
	error: {color: 'red'},
	muted: {dimColor: true},
	unknown: {color: 'magenta'},
	text: {},
	accent: {color: 'cyan'},
};

const unicodeGlyphs: Glyphs = {
	expanded: '▾',
	collapsed: '▸',
	defer: '⤷',
	cursor: '›',
	moreAbove: '↑',
	moreBelow: '↓',
	separator: '·',
	ellipsis: '…',
	live: '●',
	timeout: '⏰',
	lineBreak: lineBreakMarker,
	atLeast: '≥',
};

const asciiGlyphs: Glyphs = {
	expanded: '-',
	collapsed: '+',
	defer: '->',
	cursor: '>',
	moreAbove: '^',
	moreBelow: 'v',
	separator: '|',
	ellipsis: '...',
	live: '*',
	timeout: '[!]',
	lineBreak: asciiLineBreakMarker,
	atLeast: '>=',
};

/** `still`: a static snapshot, nothing moves (no spinner). */
export function createTheme(options: {
	readonly color: boolean;
	readonly ascii: boolean;
	readonly timeZone?: string;
	readonly still?: boolean;
}): Theme {
	return {
		...(options.timeZone === undefined ? {} : {timeZone: options.timeZone}),
		color: options.color,
		ascii: options.ascii,
		glyphs: options.ascii ? asciiGlyphs : unicodeGlyphs,
		// Without colour, nothing at all is styled by role (not even dim): icons and words carry the meaning.
		style: role => (options.color ? palette[role] : {}),
		icon: state => (options.ascii ? statusLook(state).ascii : statusLook(state).icon),
		spinner: !options.ascii && options.still !== true,
	};
}

/** The role of a node state. */
export function roleOf(state: NodeState): Role {
	return statusLook(state).role;
}
