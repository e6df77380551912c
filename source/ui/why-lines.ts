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
	const logRoom = Math.max(0, height - head.length - next.length - (d.log ? 1 : 0));
	const log = d.log && d.logTail && d.logTail.length > 0 ? d.logTail.slice(-Math.min(maxWhyLogLines, logRoom)) : [];
	const previous = d.log?.previous ? ' (previous)' : '';
	const logTitle: WhyLine[] = d.log && log.length > 0
		? [{label: 'log', text: `${d.log.pod}/${d.log.container}${previous}, last ${lines(log.length)}`, role: 'muted'}]
		: [];
	// The next command is the one line that must stay: it goes first when there is no room for it all.
	const all = [...head, ...logTitle, ...log.map(text => ({label: '', text, role: 'text' as Role})), ...next];
	return all.length <= height ? all : [...next, ...head, ...logTitle].slice(0, height);
}

/** Lines the pane would like. */
export function whyLinesWanted(d: Diagnosis | undefined): number {
	return whyLines(d, 4 + maxWhyLogLines + 2).length;
}
