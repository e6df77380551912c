/**
 * What the REAL Kanister controller wrote (test/fixtures/kanister-recorded/, kanisterio/kanister 534f152 on the e2e
 * kube-apiserver; see its README), replayed through the path `planwatch replay FILE --wait -o plain` takes: the
 * recording as the CLI loads it, the replay source on recorded time, the session store, the stream output and the
 * wait. Each case pins the tree, the closing lines, the exit code and the moment the wait ends — the entry at which
 * the controller's own record says it was done (a terminal state with no deferPhase left pending).
 */
import {describe, expect, it} from 'vitest';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {KubeObject} from '../../source/core/kube-object.js';
import type {PlanNode} from '../../source/model/plan-tree.js';
import {loadFileSource} from '../../source/sources/file-source.js';
import type {Recording, RecordingEntry} from '../../source/recording/recording.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {repoRoot} from '../helpers/run-bin.js';
import {replayStream, type ReplayedStream} from '../helpers/replay-stream.js';

const dir = path.join(repoRoot, 'test', 'fixtures', 'kanister-recorded');
const file = (name: string): string => path.join(dir, `${name}.ndjson`);

type RawStatus = {state?: string; actions?: Array<{deferPhase?: {state?: string}}>};

function actionSetOf(entry: RecordingEntry): KubeObject | undefined {
	const e = entry.event;
	return e.type === 'upsert' && e.resource === 'ActionSet' ? e.object : undefined;
}

/** The controller's last word: the first ActionSet write with a terminal state and no deferPhase still pending. */
function settledEntry(recording: Recording): RecordingEntry {
	const entry = recording.entries.find(e => {
		const status = actionSetOf(e)?.['status'] as RawStatus | undefined;
		return (status?.state === 'complete' || status?.state === 'failed') && (status.actions ?? []).every(a => a.deferPhase?.state !== 'pending');
	});
	expect(entry, 'the recording has the controller\'s final write').toBeDefined();
	return entry!;
}

/** The closing block of a plain log: the `… failed in 8s` line(s), a blank line, the tree and its summary line. */
function closing(run: ReplayedStream): {finished: string; tree: string} {
	const [head, tree] = run.stdout.trimEnd().split('\n\n');
	return {finished: head!.split('\n').at(-1)!, tree: tree!};
}

/** What the `--wait` run alongside the recording did (the header's `producer`, which the parser does not keep). */
function liveWait(name: string): {exitCode?: number} {
	const header = JSON.parse(readFileSync(file(name), 'utf8').split('\n', 1)[0]!) as {producer?: {liveWait?: {exitCode?: number}}};
	return header.producer?.liveWait ?? {};
}

async function replayed(name: string): Promise<ReplayedStream> {
	return replayStream(file(name), {wait: true, stepMs: 1});
}

/** The wait ended on the entry that settled it (within the 1 ms replay step), not before and not after. */
function expectEndsAt(run: ReplayedStream, entry: RecordingEntry): void {
	expect(run.decidedAt - entry.at).toBeGreaterThanOrEqual(0);
	expect(run.decidedAt - entry.at).toBeLessThanOrEqual(1);
}

const clip = 'client rate limiter Wait returned an error: context deadline exceeded: Failed to wait for the condition to be met: Context done while polling: context deadline exceeded';
const clipRate = 'client rate limiter Wait returned an error: rate: Wait(n=1) would exceed context deadline: Failed to wait for the condition to be met: Context done while polling: ' +
	'context deadline exceeded';

describe('replaying the real Kanister controller', () => {
	it('core ok + deferPhase ok: exit 0 when the controller writes complete, after the deferPhase', async () => {
		const run = await replayed('core-ok-defer-ok');
		expect(run.result).toEqual({exitCode: 0, message: 'okOk completed; deferPhase removeConfigMap completed'});
		expect(liveWait('core-ok-defer-ok').exitCode).toBe(0);
		const end = settledEntry(run.recording);
		expect((actionSetOf(end)!['status'] as RawStatus).state).toBe('complete');
		expectEndsAt(run, end);
		const {finished, tree} = closing(run);
		expect(finished).toBe('20:46:00 kanister/core-ok-defer-ok okOk  complete in 5s');
		expect(tree).toBe([
			'ActionSet kanister/core-ok-defer-ok · blueprint planwatch-rec · complete · 100%',
			'└─ ✔ okOk  Namespace kanister         complete  0:02',
			'   ├─ ✔ makeConfigMap                 complete  0:01',
			'   │  output: apiVersion=v1 · name=rec-okok · namespace=kanister · resource=configmaps',
			'   ├─ ✔ waitReady                     complete  0:00',
			'   └─ ⤷ ✔ deferPhase removeConfigMap  complete  0:01  always runs',
			'      output: apiVersion=v1 · name=rec-okok · namespace=kanister · resource=configmaps',
			'✔ okOk completed; deferPhase removeConfigMap completed',
		].join('\n'));
		// The controller never writes the deferPhase running: its start is logged from progress.runningPhase.
		expect(run.stdout).toContain('20:45:59 kanister/core-ok-defer-ok okOk › removeConfigMap  pending → pending (running per progress)\n');
		expect(run.stdout).toContain('okOk › removeConfigMap  pending → complete (1s)');
	});

	it('core ok + deferPhase failed: exit 1 at the failed write; the action took as long as its deferPhase', async () => {
		const run = await replayed('core-ok-defer-failed');
		expect(run.result).toEqual({exitCode: 1, message: `okFail completed but deferPhase waitGone failed: ${clip}`});
		expect(liveWait('core-ok-defer-failed').exitCode).toBe(1);
		expectEndsAt(run, settledEntry(run.recording));
		const {finished, tree} = closing(run);
		expect(finished).toBe('20:46:14 kanister/core-ok-defer-failed okFail  failed in 8s');
		// The deferPhase's end comes from the ActionSetFailed event, after the status write the wait ends on: the
		// action's time is not cut to its core phase's (0:00).
		expect(tree).toBe([
			'ActionSet kanister/core-ok-defer-failed · blueprint planwatch-rec · failed · 100%',
			'└─ ✖ okFail  Namespace kanister  failed    0:04',
			'   ├─ ✔ checkReady               complete  0:00',
			`   └─ ⤷ ✖ deferPhase waitGone    failed    0:04  always runs · ${clip}`,
			`✖ okFail completed but deferPhase waitGone failed: ${clip}`,
		].join('\n'));
	});

	it('core failed + deferPhase ok: exit 1 only after the cleanup ran, with the core phase\'s error', async () => {
		const run = await replayed('core-failed-defer-ok');
		const summary = `failOk failed in phase waitNever: ${clipRate}; deferPhase removeScratch completed (cleanup ran)`;
		expect(run.result).toEqual({exitCode: 1, message: summary});
		expect(liveWait('core-failed-defer-ok').exitCode).toBe(1);
		const end = settledEntry(run.recording);
		// The core failure is written first (state failed, deferPhase pending): the wait does not end there.
		const coreFailed = run.recording.entries.find(e => (actionSetOf(e)?.['status'] as RawStatus | undefined)?.state === 'failed')!;
		expect(coreFailed.at).toBeLessThan(end.at);
		expectEndsAt(run, end);
		const {finished, tree} = closing(run);
		expect(finished).toBe('20:46:28 kanister/core-failed-defer-ok failOk  failed in 8s');
		expect(tree).toBe([
			'ActionSet kanister/core-failed-defer-ok · blueprint planwatch-rec · failed · 50%',
			'└─ ✖ failOk  Namespace kanister     failed    0:04',
			'   ├─ ✔ makeScratch                 complete  0:00',
			'   │  output: apiVersion=v1 · name=rec-failok · namespace=kanister · resource=configmaps',
			`   ├─ ✖ waitNever                   failed    0:04  ${clipRate}`,
			'   └─ ⤷ ✔ deferPhase removeScratch  complete  0:00  always runs',
			'      output: apiVersion=v1 · name=rec-failok · namespace=kanister · resource=configmaps',
			`✖ ${summary}`,
		].join('\n'));
	});

	it('core failed + deferPhase failed: exit 1 at the deferPhase\'s failure; each node keeps its own error', async () => {
		const run = await replayed('core-failed-defer-failed');
		expect(run.result).toEqual({exitCode: 1, message: 'failFail failed in phase waitMissing; deferPhase removeMissing failed too, see events'});
		expect(liveWait('core-failed-defer-failed').exitCode).toBe(1);
		expectEndsAt(run, settledEntry(run.recording));
		const {finished, tree} = closing(run);
		expect(finished).toBe('20:46:42 kanister/core-failed-defer-failed failFail  failed in 8s');
		// status.error holds only the deferPhase's error; the core phase's comes from its ActionSetFailed event.
		expect(tree).toBe([
			'ActionSet kanister/core-failed-defer-failed · blueprint planwatch-rec · failed',
			'└─ ✖ failFail  Namespace kanister   failed  0:04',
			`   ├─ ✖ waitMissing                 failed  0:04  ${clip}`,
			'   └─ ⤷ ✖ deferPhase removeMissing  failed  0:00  always runs · configmaps "rec-never-created" not found',
			'✖ failFail failed in phase waitMissing; deferPhase removeMissing failed too, see events',
		].join('\n'));
	});

	it('two actions: complete is not the end while the other action\'s deferPhase runs; exit 1 when it fails', async () => {
		const run = await replayed('two-actions-one-defer-failed');
		const summary = 'okOk completed; deferPhase removeConfigMap completed | okFail completed but deferPhase waitGone failed: Failed to wait for the condition to be met: Context done while ' +
			'polling: context deadline exceeded';
		expect(run.result).toEqual({exitCode: 1, message: summary});
		expect(liveWait('two-actions-one-defer-failed').exitCode).toBe(1);
		const complete = run.recording.entries.find(e => (actionSetOf(e)?.['status'] as RawStatus | undefined)?.state === 'complete')!;
		const end = settledEntry(run.recording);
		expect((actionSetOf(end)!['status'] as RawStatus).state).toBe('failed');
		expect(complete.at).toBeLessThan(end.at);
		expectEndsAt(run, end);
		expect(run.stdout).toMatch(/two-actions-one-defer-failed {2}running → complete .*\n.*two-actions-one-defer-failed {2}complete → failed/);
		const {finished, tree} = closing(run);
		// The closing line names the action that failed, not the first one.
		expect(finished).toBe('20:46:58 kanister/two-actions-one-defer-failed okFail  failed in 10s');
		expect(tree).toBe([
			'ActionSet kanister/two-actions-one-defer-failed · blueprint planwatch-rec · failed · 100%',
			'├─ ✔ okOk  Namespace kanister         complete  0:04',
			'│  ├─ ✔ makeConfigMap                 complete  0:03',
			'│  │  output: apiVersion=v1 · name=rec-okok · namespace=kanister · resource=configmaps',
			'│  ├─ ✔ waitReady                     complete  0:01',
			'│  └─ ⤷ ✔ deferPhase removeConfigMap  complete  0:00  always runs',
			'│     output: apiVersion=v1 · name=rec-okok · namespace=kanister · resource=configmaps',
			'└─ ✖ okFail  Namespace kanister       failed    0:06',
			'   ├─ ✔ checkReady                    complete  0:01',
			'   └─ ⤷ ✖ deferPhase waitGone         failed    0:04  always runs · Failed to wait for the condition to be met: Context done while polling: context deadline exceeded',
			`✖ ${summary}`,
		].join('\n'));
	});

	it('Blueprint missing: exit 1 at the controller\'s init failure, with its reason', async () => {
		const run = await replayed('blueprint-missing');
		const reason = 'Failed to query blueprint: blueprints.cr.kanister.io "no-such-blueprint" not found';
		expect(run.result).toEqual({exitCode: 1, message: `failed to start: ${reason}`});
		expect(liveWait('blueprint-missing').exitCode).toBe(1);
		expectEndsAt(run, settledEntry(run.recording));
		const {finished, tree} = closing(run);
		expect(finished).toBe('20:48:04 kanister/blueprint-missing okOk  failed in 5s');
		expect(tree).toBe([
			'ActionSet kanister/blueprint-missing · blueprint no-such-blueprint · failed',
			`└─ ✖ okOk  Namespace kanister  failed  ${reason}`,
			`✖ failed to start: ${reason}`,
		].join('\n'));
	});

	it('watched late: timers from the controller\'s Started Action/Phase events, not from when planwatch started', async () => {
		const run = await replayed('watched-late');
		const summary = `late failed in phase waitLate: ${clip}; deferPhase removeLate completed (cleanup ran)`;
		expect(run.result).toEqual({exitCode: 1, message: summary});
		expect(liveWait('watched-late').exitCode).toBe(1);
		expectEndsAt(run, settledEntry(run.recording));
		// planwatch listed at 21:03:15, 11 s into phase waitLate (Started Phase 21:03:04); it failed at 21:03:19.
		expect(run.stdout.split('\n')[1]).toBe('21:03:15 kanister/watched-late  running  late running phase waitLate (50%)');
		expect(run.stdout).toContain('21:03:19 kanister/watched-late late › waitLate  running → failed (15s)\n');
		const {finished, tree} = closing(run);
		expect(finished).toBe('21:03:19 kanister/watched-late late  failed in 16s');
		expect(tree).toBe([
			'ActionSet kanister/watched-late · blueprint planwatch-rec · failed · 50%',
			'└─ ✖ late  Namespace kanister    failed    0:16',
			'   ├─ ✔ makeLate                 complete  0:00',
			'   │  output: apiVersion=v1 · name=rec-late · namespace=kanister · resource=configmaps',
			`   ├─ ✖ waitLate                 failed    0:15  ${clip}`,
			'   └─ ⤷ ✔ deferPhase removeLate  complete  0:00  always runs',
			'      output: apiVersion=v1 · name=rec-late · namespace=kanister · resource=configmaps',
			`✖ ${summary}`,
		].join('\n'));
	});

	it('deleted while running: what was seen up to the DELETED, and what the controller still did after it', async () => {
		const run = await replayStream(file('deleted-while-running'), {wait: false});
		const {recording} = run;
		const deleted = recording.entries.find(e => e.event.type === 'delete' && e.event.resource === 'ActionSet')!;
		expect(deleted).toBeDefined();
		// The store as it was just before the deletion: running, its only phase running.
		const clock = new FakeClock(recording.startMs);
		const store = new Store(clock);
		for (const e of recording.entries.filter(x => x.at < deleted.at && x.event.type !== 'end')) {
			clock.advance(e.at - clock.now());
			store.apply(e.event as Exclude<typeof e.event, {type: 'end'}>);
		}

		const before = store.getSnapshot().objects[0]!;
		expect({outcome: before.outcome, summary: before.summary}).toEqual({outcome: 'running', summary: 'slow running phase waitLong (0%)'});
		const states = (nodes: readonly PlanNode[]): string[] => nodes.flatMap(n => [`${n.name}:${n.status}`, ...states(n.children)]);
		expect(states(before.tree)).toEqual(['slow:running', 'waitLong:running', 'cleanupSlow:pending']);
		// After the DELETED, Events of the gone object: the core phase's update fails, the deferPhase still runs.
		const after = recording.entries.filter(e => e.at > deleted.at && e.event.type === 'upsert' && e.event.resource === 'Event').map(e => {
			const o = (e.event as {object: KubeObject}).object;
			return `${String(o['reason'])}: ${String(o['message']).split(':')[0]}`;
		});
		expect(after).toEqual([
			'ActionSetFailed Action: slow: Failed to update phase',
			'Started deferPhase: Executing deferPhase cleanupSlow',
			'ActionSetFailed Action: slow: Failed to update defer phase',
		]);
	});

	it('every recording drawn with -f (the file source) gives the replay\'s final verdict', async () => {
		for (const name of ['core-ok-defer-ok', 'core-ok-defer-failed', 'core-failed-defer-ok', 'core-failed-defer-failed', 'two-actions-one-defer-failed', 'blueprint-missing', 'watched-late',
			'kubetask-failed', 'kubetask-ok']) {
			const source = await loadFileSource([file(name)]);
			const store = new Store(new FakeClock());
			source.start(store.apply);
			const [object] = store.getSnapshot().objects;
			const run = await replayed(name);
			expect({name, outcome: object?.outcome, summary: object?.summary}).toEqual({name, outcome: run.result.exitCode === 0 ? 'succeeded' : 'failed', summary: run.result.message});
		}
	});
});
