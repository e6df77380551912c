/**
 * The lines under the tree that say why the selected node is stuck or failed: the cause, the applied objects, the
 * pods, the last log lines, the next command (and the note when pods or logs may not be read). Pure: what to
 * show for `height` lines, most telling first; the log gets what is left.
 */
import type {Diagnosis} from '../model/diagnosis.js';
import type {Role} from './theme.js';

export type WhyLine = {readonly label: string; readonly text: string; readonly role: Role};

/** Most log lines the pane shows. */
export const maxWhyLogLines = 8;

/** Most lines of a restarted container's current log (under its previous one's). */
export const maxWhyCurrentLines = 3;

function lines(n: number): string {
	return `${n} line${n === 1 ? '' : 's'}`;
}

export function whyLines(d: Diagnosis | undefined, height: number): WhyLine[] {
	if (!d || height <= 0) {
		return [];
	}

	const head: WhyLine[] = [];
	if (d.cause) {
		head.push({label: 'why', text: d.cause, role: 'error'});
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

	const next: WhyLine[] = d.next ? [{label: 'next', text: d.next, role: 'accent'}] : [];
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

/** Lines the pane would like. */
export function whyLinesWanted(d: Diagnosis | undefined): number {
	return whyLines(d, 4 + maxWhyLogLines + 2 + 1 + maxWhyCurrentLines).length;
}
