/**
 * `planwatch replay FILE`: a recording played back as an ObjectSource. Each recorded event is emitted at its
 * recorded time on a ReplayClock (the app clock of a replay), so the store, the wait and every view work exactly
 * as they did live, only at `--speed` and with seeking: forward runs the events in between in order, backward
 * runs the events from the start up to the moment (all synchronously: one frame).
 */
import {readFile, stat} from 'node:fs/promises';
import type {ObjectSource, SourceEvent, SourceSink} from '../state/object-source.js';
import {nextMark, parseRecording, previousMark, recordingEndMs, recordingLimits, RecordingError, type Recording} from '../state/recording.js';
import type {Clock} from '../core/clock.js';
import {Listeners} from '../core/external-store.js';
import type {ReplayClock, ReplayControls, ReplayState} from '../state/replay-clock.js';
import {Store} from '../state/store.js';
import {inputName} from './file-source.js';

export type {ReplayControls, ReplayState} from '../state/replay-clock.js';

/** Read and check a recording; throws RecordingError (exit 2) with the file and line. */
export async function loadRecording(path: string): Promise<Recording> {
	const name = inputName(path);
	let text: string;
	try {
		const info = await stat(path);
		if (info.isFile() && info.size > recordingLimits.maxBytes) {
			throw new RecordingError(`${name}: larger than ${recordingLimits.maxBytes / 1024 / 1024} MiB`);
		}

		text = await readFile(path, 'utf8');
	} catch (error) {
		if (error instanceof RecordingError) {
			throw error;
		}

		const code = (error as NodeJS.ErrnoException).code;
		const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : 'unreadable';
		throw new RecordingError(`cannot read ${name}: ${reason}`);
	}

	return parseRecording(text, name);
}

/**
 * Times of the entries after which an object or node changed status: where `[` and `]` stop. Found by playing the
 * recording once into a store of its own, so the marks are exactly the transitions the views will show.
 */
export function transitionMarks(recording: Recording): number[] {
	let now = recording.startMs;
	const clock: Clock = {now: () => now, onTick: () => () => {}, after: () => () => {}};
	const store = new Store(clock);
	const marks: number[] = [];
	let seq = 0;
	for (const entry of recording.entries) {
		if (entry.event.type === 'end') {
			continue;
		}

		now = entry.at;
		store.apply(entry.event);
		const last = store.getSnapshot().transitions.at(-1)?.seq ?? 0;
		if (last !== seq && marks.at(-1) !== entry.at) {
			marks.push(entry.at);
		}

		seq = last;
	}

	return marks;
}

export type ReplaySource = ObjectSource & {readonly controls: ReplayControls};

export type ReplayOptions = {
	readonly recording: Recording;
	readonly clock: ReplayClock;
	/** Where to start (recorded epoch ms); clamped to the recording, and not before its first `synced`. Default: its start. */
	readonly fromMs?: number;
	/** Precomputed transitionMarks (tests); computed when omitted. */
	readonly marks?: readonly number[];
};

export function createReplaySource(options: ReplayOptions): ReplaySource {
	const {recording, clock} = options;
	const {entries, startMs} = recording;
	const endMs = recordingEndMs(recording);
	// Only `[` and `]` need them: plain and json never pay for the extra pass.
	let marks = options.marks;
	// Never before the recorded session's first complete picture (its first `synced`): outputs wait for that.
	// (Several contexts: the run's own `synced`, not the first context's.)
	const syncedMs = entries.find(e => e.event.type === 'synced' && e.event.context === undefined)?.at ?? startMs;
	const fromMs = Math.min(Math.max(options.fromMs ?? startMs, syncedMs), endMs);
	let sink: SourceSink | undefined;
	let next = 0;
	let cancel: (() => void) | undefined;
	let ended = false;
	let autoPaused = false;
	let endedResolve!: () => void;
	const endedPromise = new Promise<void>(resolve => {
		endedResolve = resolve;
	});
	const listeners = new Listeners();
	let state: ReplayState = {paused: clock.paused, ended: false, speed: clock.speed};
	const refresh = (): void => {
		if (clock.paused !== state.paused || ended !== state.ended) {
			state = {paused: clock.paused, ended, speed: clock.speed};
		}

		// Also on every seek: views re-read the clock.
		listeners.notify();
	};

	clock.subscribe(refresh);

	const emit = (event: SourceEvent): void => {
		sink?.(event);
	};

	const schedule = (): void => {
		cancel?.();
		cancel = undefined;
		const entry = entries[next];
		if (!entry) {
			if (!ended) {
				ended = true;
				// The recorded session ended here: timers on screen stop where they stopped.
				autoPaused = !clock.paused;
				clock.setPaused(true);
				refresh();
				endedResolve();
			}

			return;
		}

		cancel = clock.after(entry.at - clock.now(), () => {
			cancel = undefined;
			next++;
			if (entry.event.type !== 'end') {
				emit(entry.event);
			}

			schedule();
		});
	};

	const seek = (ms: number): void => {
		const target = Math.min(Math.max(ms, startMs), endMs);
		if (target < clock.now() || (ended && target < endMs)) {
			// Backward: run everything from the start up to the target at once. The recording starts with the first
			// list of every resource (`replace`), which drops whatever the store held from later on.
			cancel?.();
			cancel = undefined;
			next = 0;
			ended = false;
			clock.seek(startMs);
			if (autoPaused) {
				autoPaused = false;
				clock.setPaused(false);
			}

			schedule();
		}

		clock.seek(target);
		refresh();
	};

	const controls: ReplayControls = {
		startMs,
		endMs,
		getState: () => state,
		subscribe: listener => listeners.add(listener),
		togglePause() {
			if (ended && clock.paused) {
				// Play again from the start, like a video player at its end.
				seek(startMs);
				clock.setPaused(false);
				return;
			}

			autoPaused = false;
			clock.setPaused(!clock.paused);
		},
		jump(direction) {
			const now = clock.now();
			marks ??= transitionMarks(recording);
			seek(direction === 'next' ? (nextMark(marks, now) ?? endMs) : (previousMark(marks, now) ?? startMs));
		},
		ended: endedPromise,
	};

	return {
		label: recording.header.context,
		scope: recording.header.namespace,
		controls,
		start(s) {
			sink = s;
			next = 0;
			schedule();
			clock.seek(fromMs);
		},
		stop() {
			sink = undefined;
			cancel?.();
			cancel = undefined;
		},
	};
}
