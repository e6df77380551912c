/**
 * `planwatch replay FILE`: a recording played back as an ObjectSource. Each recorded event is emitted at its
 * recorded time on a ReplayClock (the app clock of a replay), so the store, the wait and every view work exactly
 * as they did live, only at `--speed` and with seeking: forward runs the events in between in order, backward
 * runs the events from the start up to the moment (all synchronously: one frame).
 */
import type {ObjectSource, SourceSink} from '../state/object-source.js';
import {
	nextMark,
	previousMark,
	recordingEndMs,
	recordingLimits,
	RecordingError,
	RecordingParser,
	type Recording,
} from '../recording/recording.js';
import type {Clock} from '../core/clock.js';
import {InputError} from '../core/errors.js';
import {Listeners} from '../core/external-store.js';
import type {ReplayClock, ReplayControls, ReplayState} from '../recording/replay-clock.js';
import {Store} from '../state/store.js';
import {inputName, processReader, textChunks, type InputReader} from './bounded-input.js';
import {readRecordingLines} from './recording-input.js';

export type {ReplayControls, ReplayState} from '../recording/replay-clock.js';

/** Read and check a recording (bounded: bounded-input.ts); throws RecordingError (exit 2) with the file and line. */
export async function loadRecording(path: string, reader: InputReader = processReader): Promise<Recording> {
	const name = inputName(path);
	try {
		return await readRecordingLines(textChunks(path, reader, recordingLimits.maxBytes), new RecordingParser(name));
	} catch (error) {
		// The input's own refusals (binary, too big, unreadable) are a recording's too.
		throw error instanceof InputError && !(error instanceof RecordingError) ? new RecordingError(error.message) : error;
	}
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
	const playback = new Playback(options);
	return {
		label: options.recording.header.context,
		scope: options.recording.header.namespace,
		controls: playback,
		start(sink) {
			playback.start(sink);
		},
		stop() {
			playback.stop();
		},
	};
}

/** The recording's entries emitted at their recorded times on the replay clock, and what `[`, `]` and space do. */
class Playback implements ReplayControls {
	readonly startMs: number;
	readonly endMs: number;
	/** Settles when every entry has played. */
	readonly ended: Promise<void>;
	readonly #recording: Recording;
	readonly #clock: ReplayClock;
	readonly #fromMs: number;
	readonly #listeners = new Listeners();
	/** Only `[` and `]` need them: plain and json never pay for the extra pass. */
	#marks: readonly number[] | undefined;
	#sink: SourceSink | undefined;
	#next = 0;
	#cancel: (() => void) | undefined;
	#ended = false;
	/** The end paused the clock (rather than the user): going back plays again. */
	#autoPaused = false;
	#endedResolve!: () => void;
	#state: ReplayState;

	constructor(options: ReplayOptions) {
		const {recording, clock} = options;
		this.#recording = recording;
		this.#clock = clock;
		this.#marks = options.marks;
		this.startMs = recording.startMs;
		this.endMs = recordingEndMs(recording);
		// Never before the recorded session's first complete picture (its first `synced`): outputs wait for that.
		// (Several contexts: the run's own `synced`, not the first context's.)
		const syncedMs = recording.entries.find(e => e.event.type === 'synced' && e.event.context === undefined)?.at ?? this.startMs;
		this.#fromMs = Math.min(Math.max(options.fromMs ?? this.startMs, syncedMs), this.endMs);
		this.ended = new Promise<void>(resolve => {
			this.#endedResolve = resolve;
		});
		this.#state = {paused: clock.paused, ended: false, speed: clock.speed};
		clock.subscribe(this.#refresh);
	}

	readonly getState = (): ReplayState => this.#state;

	readonly subscribe = (listener: () => void): (() => void) => this.#listeners.add(listener);

	readonly togglePause = (): void => {
		const clock = this.#clock;
		if (this.#ended && clock.paused) {
			// Play again from the start, like a video player at its end.
			this.#seek(this.startMs);
			clock.setPaused(false);
			return;
		}

		this.#autoPaused = false;
		clock.setPaused(!clock.paused);
	};

	readonly jump = (direction: 'next' | 'previous'): void => {
		const now = this.#clock.now();
		const marks = (this.#marks ??= transitionMarks(this.#recording));
		this.#seek(direction === 'next' ? (nextMark(marks, now) ?? this.endMs) : (previousMark(marks, now) ?? this.startMs));
	};

	start(sink: SourceSink): void {
		this.#sink = sink;
		this.#next = 0;
		this.#schedule();
		this.#clock.seek(this.#fromMs);
	}

	stop(): void {
		this.#sink = undefined;
		this.#cancel?.();
		this.#cancel = undefined;
	}

	readonly #refresh = (): void => {
		const clock = this.#clock;
		if (clock.paused !== this.#state.paused || this.#ended !== this.#state.ended) {
			this.#state = {paused: clock.paused, ended: this.#ended, speed: clock.speed};
		}

		// Also on every seek: views re-read the clock.
		this.#listeners.notify();
	};

	/** A timer for the next entry, or the end. */
	#schedule(): void {
		this.#cancel?.();
		this.#cancel = undefined;
		const clock = this.#clock;
		const entry = this.#recording.entries[this.#next];
		if (!entry) {
			if (!this.#ended) {
				this.#ended = true;
				// The recorded session ended here: timers on screen stop where they stopped.
				this.#autoPaused = !clock.paused;
				clock.setPaused(true);
				this.#refresh();
				this.#endedResolve();
			}

			return;
		}

		this.#cancel = clock.after(entry.at - clock.now(), () => {
			this.#cancel = undefined;
			this.#next++;
			if (entry.event.type !== 'end') {
				this.#sink?.(entry.event);
			}

			this.#schedule();
		});
	}

	#seek(ms: number): void {
		const clock = this.#clock;
		const target = Math.min(Math.max(ms, this.startMs), this.endMs);
		if (target < clock.now() || (this.#ended && target < this.endMs)) {
			// Backward: run everything from the start up to the target at once. The recording starts with the first
			// list of every resource (`replace`), which drops whatever the store held from later on.
			this.#cancel?.();
			this.#cancel = undefined;
			this.#next = 0;
			this.#ended = false;
			clock.seek(this.startMs);
			if (this.#autoPaused) {
				this.#autoPaused = false;
				clock.setPaused(false);
			}

			this.#schedule();
		}

		clock.seek(target);
		this.#refresh();
	}
}
