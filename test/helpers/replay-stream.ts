/**
 * `planwatch replay FILE [--wait] -o plain|json` in-process, on a fake wall clock: the recording as the CLI loads it
 * (loadRecording), the replay source on a ReplayClock, the session's store and the stream output (runStream), wired
 * as source/cli.tsx wires them. Returns what stdout got, the result, and the recorded time the result was decided.
 */
import {runStream} from '../../source/cli/run-stream.js';
import {exitCodes} from '../../source/core/exit-codes.js';
import type {Recording} from '../../source/recording/recording.js';
import {ReplayClock} from '../../source/recording/replay-clock.js';
import {openSession} from '../../source/state/session.js';
import {createReplaySource, loadRecording} from '../../source/sources/replay-source.js';
import type {StoreSnapshot} from '../../source/state/store.js';
import type {WaitResult} from '../../source/state/wait-controller.js';
import {FakeClock} from './fake-clock.js';

export type ReplayedStream = {
	readonly recording: Recording;
	readonly stdout: string;
	readonly result: WaitResult;
	/** Recorded time (epoch ms) at which the result was decided. */
	readonly decidedAt: number;
	readonly final: StoreSnapshot;
};

async function flush(): Promise<void> {
	await new Promise(resolve => {
		setImmediate(resolve);
	});
}

export async function replayStream(file: string, options: {wait: boolean; output?: 'plain' | 'json'; timeoutMs?: number; stepMs?: number}): Promise<ReplayedStream> {
	const recording = await loadRecording(file);
	const real = new FakeClock(Date.parse('2027-01-01T00:00:00Z'));
	const clock = new ReplayClock(real, recording.startMs, 1, true);
	const source = createReplaySource({recording, clock});
	const session = openSession(source, {clock, wallClock: real});
	session.start();
	// As source/cli.tsx: the recording's end settles a replay that is not waiting, or one whose wait it does not finish.
	const ended = source.controls.ended
		.then(async () => new Promise(resolve => {
			setImmediate(resolve);
		}))
		.then(() => ({exitCode: options.wait ? exitCodes.interrupted : -1, message: options.wait ? 'the recording ends before the wait finished' : ''}));
	let stdout = '';
	let decidedAt: number | undefined;
	const running = runStream({
		store: session.store,
		clock,
		options: {ascii: false, color: false, wait: options.wait, timeoutMs: options.timeoutMs ?? 0, extendMs: 300_000, output: options.output ?? 'plain'},
		targets: recording.header.waitFor,
		async write(text) {
			stdout += text;
		},
		interrupted: new Promise(() => {}),
		timeZone: 'UTC',
		ended,
		onResult() {
			decidedAt = clock.now();
		},
		onReady() {
			clock.setPaused(false);
		},
	});
	let settled = false;
	void running.then(() => {
		settled = true;
	});
	const stepMs = options.stepMs ?? 50;
	// Far past any recording's end (and its 30 s deferPhase grace): a run that never settles fails the test here.
	for (let i = 0; !settled && i < 20 * 60_000 / stepMs; i++) {
		real.advance(stepMs);
		await flush();
	}

	const result = await running;
	source.stop();
	return {recording, stdout, result, decidedAt: decidedAt!, final: session.store.getSnapshot()};
}
