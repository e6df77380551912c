import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {formatFinished, formatTransition, renderObjectPlain, renderPlain} from '../../source/render/plain.js';
import {objectTimingId, type NodeTiming, type Transition} from '../../source/state/store.js';
import {expectGolden} from '../helpers/golden.js';
import {backupDeferFailed, mysqlDeploying} from '../helpers/plan-objects.js';

const golden = (name: string): string => fileURLToPath(new URL(`golden/${name}`, import.meta.url));
const now = Date.parse('2026-11-30T11:04:21Z');
const at = (iso: string): number => Date.parse(iso);

/** What the store would have observed while watching mysql-instance's deploy. */
const mysqlTimings = new Map<string, NodeTiming>([
	[objectTimingId, {startedAt: at('2026-11-30T11:00:40Z')}],
	['plan:deploy', {startedAt: at('2026-11-30T11:00:40Z')}],
	['plan:deploy/phase:deploy', {startedAt: at('2026-11-30T11:00:40Z')}],
	['plan:deploy/phase:deploy/step:deploy', {startedAt: at('2026-11-30T11:00:40Z'), endedAt: at('2026-11-30T11:01:52Z')}],
	['plan:deploy/phase:deploy/step:init', {startedAt: at('2026-11-30T11:01:52Z')}],
]);

const backupTimings = new Map<string, NodeTiming>([
	['action:backup/phase:createBackupPod', {startedAt: at('2026-11-30T11:00:01Z'), endedAt: at('2026-11-30T11:00:05Z')}],
	['action:backup/phase:waitForPodReady', {startedAt: at('2026-11-30T11:00:05Z'), endedAt: at('2026-11-30T11:00:19Z')}],
	['action:backup/phase:copyFiles', {startedAt: at('2026-11-30T11:00:19Z'), endedAt: at('2026-11-30T11:00:57Z')}],
	['action:backup/deferPhase:deferPhase', {startedAt: at('2026-11-30T11:00:57Z'), endedAt: at('2026-11-30T11:00:59Z')}],
	['action:backup', {startedAt: at('2026-11-30T11:00:01Z'), endedAt: at('2026-11-30T11:00:59Z')}],
]);

const snapshot = {
	objects: [backupDeferFailed, mysqlDeploying],
	timings: new Map([
		[objectKey(mysqlDeploying), mysqlTimings],
		[objectKey(backupDeferFailed), backupTimings],
	]),
};

describe('renderPlain', () => {
	it('draws every node of every object, aligned, with times, notes and the summary', () => {
		expectGolden(golden('sketch-unicode.txt'), renderPlain(snapshot, {now, ascii: false, color: false, timeZone: 'UTC'}));
	});

	it('draws the same picture in ASCII', () => {
		const text = renderPlain(snapshot, {now, ascii: true, color: false, timeZone: 'UTC'});
		expectGolden(golden('sketch-ascii.txt'), text);
		expect(text).toMatch(/^[\u0020-\u007E\n]*$/);
	});

	it('colours with SGR only when asked, and never moves the cursor', () => {
		const colored = renderPlain(snapshot, {now, ascii: false, color: true, timeZone: 'UTC'});
		const plain = renderPlain(snapshot, {now, ascii: false, color: false, timeZone: 'UTC'});
		expect(plain).not.toContain('\u001B');
		expect(colored).toContain('\u001B[31m✖\u001B[39m');
		// Every escape sequence is SGR (ends in m): no cursor movement, no erase.
		expect(colored.match(/\u001B\[[\d;]*[A-Za-z]/g)?.every(s => s.endsWith('m'))).toBe(true);
		expect(colored.replaceAll(/\u001B\[[\d;]*m/g, '')).toBe(plain);
	});

	it('shows a running clock only after a second, not at first sight', () => {
		const firstSight = new Map<string, NodeTiming>([['plan:deploy/phase:deploy/step:init', {startedAt: now}]]);
		const lines = renderObjectPlain(mysqlDeploying, firstSight, {now, ascii: false, color: false});
		const init = lines.find(l => l.includes(' init '));
		expect(init).toMatch(/ERROR +A transient/);
		expect(init).not.toMatch(/\d:\d\d/);
	});

	it('keeps one line per node when a message has line breaks (the sanitizer made them markers)', () => {
		const lines = renderObjectPlain(mysqlDeploying, undefined, {now, ascii: false, color: false, timeZone: 'UTC'});
		expect(lines).toHaveLength(1 + 8 + 1);
		expect(lines.join('\n')).toContain('Will retry. ⏎ job "init" is not ready');
	});

	it('draws nothing for no objects', () => {
		expect(renderPlain({objects: [], timings: new Map()}, {now, ascii: false, color: false})).toBe('');
	});
});

describe('formatTransition', () => {
	const t: Transition = {
		seq: 1,
		at: at('2026-11-30T11:03:22Z'),
		objectKey: 'Instance/default/mysql-instance',
		kind: 'Instance',
		namespace: 'default',
		name: 'mysql-instance',
		path: ['deploy', 'deploy', 'deploy'],
		from: 'IN_PROGRESS',
		to: 'COMPLETE',
		durationMs: 72_000,
	};

	it('writes the log line of the sketch', () => {
		expect(formatTransition(t, {ascii: false, color: false, timeZone: 'UTC'})).toBe(
			'11:03:22 default/mysql-instance deploy › deploy › deploy  IN_PROGRESS → COMPLETE (1m12s)',
		);
	});

	it('has ASCII, colour and object-level forms', () => {
		expect(formatTransition({...t, durationMs: undefined}, {ascii: true, color: false, timeZone: 'UTC'})).toBe(
			'11:03:22 default/mysql-instance deploy > deploy > deploy  IN_PROGRESS -> COMPLETE',
		);
		expect(formatTransition({...t, path: [], from: 'PENDING', to: 'IN_PROGRESS', durationMs: undefined}, {ascii: false, color: true, timeZone: 'UTC'})).toBe(
			'11:03:22 default/mysql-instance  PENDING → \u001B[36mIN_PROGRESS\u001B[39m',
		);
		expect(formatTransition({...t, kind: 'ActionSet', from: '', to: 'pending', durationMs: undefined}, {ascii: false, color: false, timeZone: 'UTC'})).toContain('  - → pending');
	});
});

describe('formatFinished', () => {
	it('says how the object ended and how long it took', () => {
		const done = {...mysqlDeploying, outcome: 'succeeded' as const, status: 'COMPLETE', state: 'succeeded' as const};
		const timings = new Map<string, NodeTiming>([[objectTimingId, {startedAt: at('2026-11-30T11:02:10Z'), endedAt: at('2026-11-30T11:06:41Z')}]]);
		expect(formatFinished(done, timings, at('2026-11-30T11:06:41Z'), {ascii: false, color: false, timeZone: 'UTC'})).toBe(
			'11:06:41 default/mysql-instance deploy  COMPLETE in 4m31s',
		);
	});
});
