/** The why pane's lines: a crash loop shows its previous instance's log and, when it has lines, the current one's. */
import {describe, expect, test} from 'vitest';
import type {Diagnosis} from '../../source/model/diagnosis.js';
import {maxWhyCurrentLines, maxWhyLogLines, whyLines, whyLinesWanted} from '../../source/ui/why-lines.js';

const log = {namespace: 'ns', pod: 'web-0', container: 'app', previous: true} as const;
const numbered = (word: string, n: number) => Array.from({length: n}, (_, i) => `${word} ${i + 1}`);
const crashLoop = (current?: readonly string[]): Diagnosis => ({
	resources: [],
	pods: [],
	cause: 'pod web-0: CrashLoopBackOff: container app keeps crashing, 6 restarts',
	log,
	logTail: numbered('crashed', 12),
	currentLog: {...log, previous: false},
	...(current ? {currentTail: current} : {}),
	next: 'kubectl logs -n ns web-0 -c app --previous',
});

const shown = (d: Diagnosis, height: number) => whyLines(d, height).map(l => (l.label ? `${l.label}: ${l.text}` : l.text));

describe('why pane: a restarted container\'s logs', () => {
	test('with room: the previous log\'s last lines, then the current log\'s (bounded), then the next command', () => {
		const d = crashLoop(numbered('starting', 5));
		expect(shown(d, whyLinesWanted(d))).toEqual([
			'why: pod web-0: CrashLoopBackOff: container app keeps crashing, 6 restarts',
			`log: web-0/app (previous), last ${maxWhyLogLines} lines`,
			...numbered('crashed', 12).slice(-maxWhyLogLines),
			`now: web-0/app (current), last ${maxWhyCurrentLines} lines`,
			'starting 3', 'starting 4', 'starting 5',
			'next: kubectl logs -n ns web-0 -c app --previous',
		]);
	});

	test('a current log with no lines yet: no title for it, the room goes to the previous one', () => {
		const d = crashLoop();
		const lines = shown(d, whyLinesWanted(d));
		expect(lines.some(l => l.startsWith('now:'))).toBe(false);
		expect(lines).toContain(`log: web-0/app (previous), last ${maxWhyLogLines} lines`);
	});

	test('little room: the current log gets a third of it at most, the previous the rest; next stays', () => {
		const d = crashLoop(numbered('starting', 5));
		const lines = shown(d, 10); // why, 2 titles, next: 6 lines of log
		expect(lines).toEqual([
			'why: pod web-0: CrashLoopBackOff: container app keeps crashing, 6 restarts',
			'log: web-0/app (previous), last 4 lines',
			'crashed 9', 'crashed 10', 'crashed 11', 'crashed 12',
			'now: web-0/app (current), last 2 lines',
			'starting 4', 'starting 5',
			'next: kubectl logs -n ns web-0 -c app --previous',
		]);
	});
});

describe('why pane: the next command is read in full', () => {
	test('too long for the width: wrapped at spaces onto lines of the pane, the hint after the last when it fits', () => {
		const next = 'kanctl create actionset --action backup --from backup-orders-7q2lx --namespace default';
		const d: Diagnosis = {resources: [], pods: [], cause: 'pod x: exit code 2', next};
		const lines = whyLines(d, whyLinesWanted(d, 60), 60);
		const nextLines = lines.slice(lines.findIndex(l => l.label === 'next'));
		expect(nextLines.map(l => l.text).join(' ')).toBe(next);
		expect(nextLines.every(l => l.text.length <= 60 - 9)).toBe(true);
		expect(nextLines.map(l => l.label)).toEqual(['next', '']);
		expect(nextLines.map(l => l.copies ?? false)).toEqual([false, true]);
		// The cause wraps too, on two lines at most.
		const long: Diagnosis = {...d, cause: 'pod shop-db-mysql-6c9f7b8d4-x2k4q: CrashLoopBackOff: container mysql keeps crashing, 6 restarts, last exit code 1 (Error)'};
		const why = whyLines(long, whyLinesWanted(long, 60), 60).filter(l => l.role === 'error');
		expect(why.map(l => l.label)).toEqual(['why', '']);
		expect(why.at(-1)!.text.endsWith('…')).toBe(true);
		expect(whyLines(long, 10, 300).filter(l => l.role === 'error')).toHaveLength(1);
		// Wide enough: one line, with its hint.
		expect(whyLines(d, 10, 140).filter(l => l.role === 'accent')).toEqual([{label: 'next', text: next, role: 'accent', copies: true}]);
	});
});
