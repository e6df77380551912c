/**
 * The lines under the tree that say why the selected node is stuck or failed: the cause, the applied objects, the
 * pods, the last log lines, the next command (and the note when pods or logs may not be read). Pure: what to
 * show for `height` lines, most telling first; the log gets what is left.
 */
import type {Diagnosis} from '../model/diagnosis.js';
import {displayWidth} from '../model/display-width.js';
import {wrapLines} from './cell-text.js';
import type {Role} from './theme.js';

/** `copies`: the last line of the next command, followed by `(y copies)` when there is room. */
export type WhyLine = {readonly label: string; readonly text: string; readonly role: Role; readonly copies?: boolean};

/** Cells of the label column (`   next  `). */
export const whyLabelWidth = 9;

/** What follows the next command's last line. */
export const copiesHint = '  (y copies)';

/** Most lines the next command wraps onto: it is read in full, not cut. */
const maxNextLines = 3;

/** The next command in lines of `width` cells (the whole pane's): one line when it fits with its hint. */
function nextLines(next: string, width: number): WhyLine[] {
	const room = width - whyLabelWidth;
	if (!Number.isFinite(width) || displayWidth(next) + copiesHint.length <= room) {
		return [{label: 'next', text: next, role: 'accent', copies: true}];
	}

	const parts = wrapLines(next, Math.max(1, room), maxNextLines);
	return parts.map((text, i) => ({
		label: i === 0 ? 'next' : '',
		text,
		role: 'accent' as Role,
		...(i === parts.length - 1 && displayWidth(text) + copiesHint.length <= room ? {copies: true} : {}),
	}));
}

/** Most log lines the pane shows. */
export const maxWhyLogLines = 8;

/** Most lines of a restarted container's current log (under its previous one's). */
export const maxWhyCurrentLines = 3;

function lines(n: number): string {
	return `${n} line${n === 1 ? '' : 's'}`;
}

/** `width`: the pane's cells (a next command too long for one line wraps); unbounded when not given. */
export function whyLines(d: Diagnosis | undefined, height: number, width = Number.POSITIVE_INFINITY): WhyLine[] {
	if (!d || height <= 0) {
		return [];
	}

	const head: WhyLine[] = [];
	if (d.cause) {
		// The cause is read in full too, on up to two lines.
		const room = width - whyLabelWidth;
		const parts = Number.isFinite(width) && displayWidth(d.cause) > room ? wrapLines(d.cause, Math.max(1, room), 2) : [d.cause];
		head.push(...parts.map((text, i) => ({label: i === 0 ? 'why' : '', text, role: 'error' as Role})));
	}

	if (d.resources.length > 0) {
		const text = d.resources.map(r => `${r.kind.toLowerCase()} ${r.name} ${r.words}`).join(' · ');
		head.push({label: 'objects', text, role: d.resources.every(r => r.healthy) ? 'text' : 'warning'});
	}

	if (d.pods.length > 0 && (d.pods.length > 1 || !d.cause)) {
		head.push({label: 'pods', text: d.pods.map(p => `${p.name} ${p.words}`).join(' · '), role: 'muted'});
	}

	if (d.note) {
		head.push({label: 'note', text: d.note, role: 'warning'});
	}

	const next: WhyLine[] = d.next ? nextLines(d.next, width) : [];
	const previousTail = d.log && d.logTail ? d.logTail : [];
	const currentTail = d.currentLog && d.currentTail ? d.currentTail : [];
	const currentWanted = Math.min(maxWhyCurrentLines, currentTail.length);
	const titles = (d.log ? 1 : 0) + (currentWanted > 0 ? 1 : 0);
	const logRoom = Math.max(0, height - head.length - next.length - titles);
	// A crash loop's current log gets at most a third of the room: the previous instance's says why it crashed.
	const currentShown = Math.min(currentWanted, Math.floor(logRoom / 3) || (logRoom >= 2 ? 1 : 0));
	const log = previousTail.slice(-Math.min(maxWhyLogLines, logRoom - currentShown));
	const current = currentShown > 0 ? currentTail.slice(-currentShown) : [];
	const previous = d.log?.previous ? ' (previous)' : '';
	const logTitle: WhyLine[] = d.log && log.length > 0
		? [{label: 'log', text: `${d.log.pod}/${d.log.container}${previous}, last ${lines(log.length)}`, role: 'muted'}]
		: [];
	const currentTitle: WhyLine[] = d.currentLog && current.length > 0
		? [{label: 'now', text: `${d.currentLog.pod}/${d.currentLog.container} (current), last ${lines(current.length)}`, role: 'muted'}]
		: [];
	const text = (t: string): WhyLine => ({label: '', text: t, role: 'text'});
	// The next command is the one line that must stay: it goes first when there is no room for it all.
	const all = [...head, ...logTitle, ...log.map(t => text(t)), ...currentTitle, ...current.map(t => text(t)), ...next];
	return all.length <= height ? all : [...next, ...head, ...logTitle].slice(0, height);
}

/** Lines the pane would like at `width` cells. */
export function whyLinesWanted(d: Diagnosis | undefined, width = Number.POSITIVE_INFINITY): number {
	return whyLines(d, 5 + maxWhyLogLines + 1 + maxNextLines + 1 + maxWhyCurrentLines, width).length;
}
