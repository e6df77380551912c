import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {encodeHeader, parseRecording, RecordingError, stateAt, type Recording} from '../../source/recording/recording.js';
import {openRecorder} from '../../source/sources/recorder.js';
import {createReplaySource, loadRecording, transitionMarks} from '../../source/sources/replay-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {ReplayClock} from '../../source/recording/replay-clock.js';
import {Store, type StoreSnapshot} from '../../source/state/store.js';
import {recordScenario} from '../helpers/recordings.js';
import {waitUntil} from '../helpers/wait-until.js';

function replay(recording: Recording, speed = 1, fromMs?: number) {
	const real = new FakeClock(Date.parse('2027-01-01T00:00:00Z'));
	const clock = new ReplayClock(real, recording.startMs, speed);
	const store = new Store(clock);
	const source = createReplaySource({recording, clock, fromMs});
	source.start(store.apply);
	return {real, clock, store, source};
}

/** What a view shows of the objects: statuses of every node, and the transitions with their recorded times. */
function picture(s: StoreSnapshot) {
	return {
		objects: s.objects.map(o => ({key: `${o.kind}/${o.name}`, status: o.status, outcome: o.outcome, summary: o.summary, tree: JSON.stringify(o.tree)})),
		timings: JSON.stringify([...s.timings].map(([k, v]) => [k, [...v]])),
	};
}

describe('replay source', () => {
	it('replays a recording to the very store the live run had: objects, timings, transitions at their times', () => {
		const {live, recording} = recordScenario('postgres-restore-failed');
		const {real, store, source} = replay(recording, 8);
		real.advance((recording.entries.at(-1)!.at - recording.startMs) / 8 + 10);
		const replayed = store.getSnapshot();
		expect(picture(replayed)).toEqual(picture(live));
		const strip = (s: StoreSnapshot) => s.transitions.map(t => `${t.at} ${t.objectKey} ${t.path.join('>')} ${t.from}->${t.to} ${t.durationMs ?? ''}`);
		expect(strip(replayed)).toEqual(strip(live));
		expect(replayed.transitions.length).toBeGreaterThan(5);
		expect(source.controls.getState()).toMatchObject({ended: true, paused: true});
	});

	it('jumps to the next and previous transition, with the objects as they were then', () => {
		const {recording} = recordScenario('postgres-restore-failed');
		const marks = transitionMarks(recording);
		expect(marks.length).toBeGreaterThan(3);
		const {clock, store, source} = replay(recording);
		source.controls.jump('next');
		expect(clock.now()).toBe(marks[0]);
		source.controls.jump('next');
		source.controls.jump('next');
		expect(clock.now()).toBe(marks[2]);
		const forward = picture(store.getSnapshot());
		source.controls.jump('next');
		expect(picture(store.getSnapshot()).objects).not.toEqual(forward.objects);
		source.controls.jump('previous');
		expect(clock.now()).toBe(marks[2]);
		// Back: the same picture as when it got there going forward, timers included (nothing from the future).
		expect(picture(store.getSnapshot())).toEqual(forward);
		for (let i = 0; i < marks.length + 2; i++) {
			source.controls.jump('previous');
		}

		expect(clock.now()).toBe(recording.startMs);
		for (let i = 0; i < marks.length + 2; i++) {
			source.controls.jump('next');
		}

		expect(source.controls.getState().ended).toBe(true);
		expect(stateAt(recording.entries).get('ActionSet')!.map(o => o.metadata?.name)).toEqual(store.getSnapshot().objects.map(o => o.name));
	});

	it('starts --from a moment with everything before it applied at once; space pauses', () => {
		const {recording} = recordScenario('kudo-fatal');
		const marks = transitionMarks(recording);
		const {real, clock, store, source} = replay(recording, 1, marks[1]);
		expect(clock.now()).toBe(marks[1]);
		const before = store.getSnapshot().version;
		source.controls.togglePause();
		real.advance(60_000);
		expect(clock.now()).toBe(marks[1]);
		expect(store.getSnapshot().version).toBe(before);
		expect(source.controls.getState().paused).toBe(true);
	});
});

describe('recorder', () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'planwatch-rec-'));
	const header = {version: '0.1.0', source: 'cluster' as const, context: 'kind', namespace: 'prod', targets: [], waitFor: [], start: '2026-11-30T11:00:00.000Z'};

	it('appends whole lines without waiting, flushes on close with an end line, and reads back', async () => {
		const file = path.join(dir, 'a.ndjson');
		const recorder = await openRecorder(file, header, {flushMs: 5});
		const at = Date.parse(header.start);
		for (let i = 0; i < 500; i++) {
			recorder.record(at + i, {type: 'connection', state: {status: i % 2 ? 'live' : 'connecting'}});
		}

		// Nothing was written synchronously by record(): the UI never waits for the disk.
		expect(readFileSync(file, 'utf8')).toBe('');
		// Written without close(), a flush (5 ms) later; polled, as a loaded machine may take longer. Every read
		// sees whole lines only.
		let partial = '';
		await waitUntil(() => {
			partial = readFileSync(file, 'utf8');
			expect(partial === '' || partial.endsWith('\n')).toBe(true);
			return partial !== '' && parseRecording(partial, 'a').entries.length === 500;
		}, 'the 500 lines on disk', 10_000);
		expect(parseRecording(partial, 'a').entries).toHaveLength(500);
		await recorder.close(at + 1000);
		const recording = await loadRecording(file);
		expect(recording.entries).toHaveLength(501);
		expect(recording.entries.at(-1)!.event).toEqual({type: 'end'});
	});

	it('an exit without close() (process.exit after a crash) still hands over the buffered lines, synchronously', async () => {
		const file = path.join(dir, 'exit.ndjson');
		const before = new Set(process.listeners('exit'));
		const recorder = await openRecorder(file, header, {flushMs: 60_000});
		const onExit = process.listeners('exit').find(l => !before.has(l))!;
		recorder.record(Date.parse(header.start) + 5, {type: 'synced'});
		expect(readFileSync(file, 'utf8')).toBe('');
		onExit(0);
		const recording = parseRecording(readFileSync(file, 'utf8'), 'exit');
		expect(recording.entries.map(e => e.event)).toEqual([{type: 'synced'}]);
		process.removeListener('exit', onExit);
		await recorder.close(Date.parse(header.start) + 6);
		expect((await loadRecording(file)).entries.map(e => e.event.type)).toEqual(['synced', 'end']);
	});

	it('refuses to overwrite an existing recording', async () => {
		const file = path.join(dir, 'b.ndjson');
		writeFileSync(file, 'keep me\n');
		await expect(openRecorder(file, header)).rejects.toThrow(/--record .*b\.ndjson: the file exists; choose a new file or remove it/);
		expect(readFileSync(file, 'utf8')).toBe('keep me\n');
	});

	it('names a bad file and line when loading', async () => {
		const file = path.join(dir, 'c.ndjson');
		writeFileSync(file, `${encodeHeader(header)}{"at":"2026-11-30T11:00:01Z","type":"upsert"}\n`);
		await expect(loadRecording(file)).rejects.toThrow(new RecordingError(`${file}: line 2: unknown resource ""`));
		await expect(loadRecording(path.join(dir, 'missing'))).rejects.toThrow(/cannot read .*missing: no such file/);
	});
});
