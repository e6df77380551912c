/**
 * planwatch's entry: argv → Options → a source of objects → one output mode → exit code. Wiring only; parsing
 * is source/cli/parse-args.ts, drawing is source/render/ and source/ui/. Every failure ends here as one line
 * on stderr and an exit code (0 nothing failed, 1 failed, 2 usage/input/output, 3 timed out, 4 cluster, 130
 * interrupted, 141 the reader of stdout left before the run had an outcome).
 */
import path from 'node:path';
import process from 'node:process';
import {describeError} from './cli/describe-error.js';
import {exitCodes, worstExitCode} from './core/exit-codes.js';
import {InputError} from './core/errors.js';
import {drawOnce} from './cli/draw-once.js';
import {handleInterrupts} from './cli/interrupt.js';
import {outputFailure} from './cli/output-errors.js';
import {parseArgs, requestLogVerbosity, stackTraceVerbosity, type Options} from './cli/parse-args.js';
import {openTerminalInput} from './cli/tty-input.js';
import {buildInfo, formatVersion} from './cli/build-info.js';
import {whenSynced} from './cli/when-synced.js';
import type {ObjectSource} from './state/object-source.js';
import {createTerminalSignals} from './cli/terminal-signals.js';
import {stdoutWasClosed} from './cli/closed-stdout.js';
import type {Recorder} from './sources/recorder.js';
import type {ReplayControls} from './sources/replay-source.js';
import {objectKey} from './model/plan-tree.js';
import type {AsOf} from './model/as-of.js';
import {sanitizeLine, shownInput} from './model/sanitize.js';
import {didYouMean} from './model/suggest.js';
import {SystemClock, type Clock} from './core/clock.js';
import {openSession, type Session} from './state/session.js';
import type {Store} from './state/store.js';
import {capYoungGeneration} from './cli/young-generation.js';
import {withoutFetchingDataUrls} from './cli/without-fetching-data-urls.js';

/**
 * What the run knows about its own end, in one object handed to whatever may end it: the exit code once the
 * outcome is known, and whether stdout has failed. A closed stdout (`| head -1`) can end the run at any write.
 */
class RunState {
	/** The exit code of the run once its outcome is known: what a closed stdout exits with. */
	reached: number | undefined;
	#outputFailing = false;

	/** Write and wait until the stream took it, so exiting never cuts output short (pipes are async on macOS). */
	async write(stream: NodeJS.WriteStream, text: string): Promise<void> {
		if (text === '') {
			return;
		}

		await new Promise<void>(resolve => {
			stream.write(text, error => {
				if (error && stream === process.stdout) {
					this.outputFailed(error);
				}

				resolve();
			});
		});
	}

	/**
	 * stdout failed (the stream reports it to the write callback and as an 'error' event: the first one ends the
	 * run). The reader leaving keeps the code the run had reached; a full disk is an error (output-errors.ts).
	 */
	outputFailed(error: unknown): void {
		if (this.#outputFailing) {
			return;
		}

		this.#outputFailing = true;
		const {exitCode, message} = outputFailure(error, this.reached, Boolean(process.stdout.isTTY));
		if (message) {
			process.stderr.write(`planwatch: ${message}\n`);
		}

		process.exit(exitCode);
	}
}

const interrupt = handleInterrupts(process, exitCodes.interrupted, process.stdout);
// Started with --max-semi-space-size (the bin runs Node again with it, the standalone executable has it): V8 caps it.
if (!process.execArgv.some(arg => arg.startsWith('--max-semi-space-size'))) {
	capYoungGeneration();
}

/** kubectl 1.26+ completes `kubectl planwatch <TAB>` by running this name (a link to the bin) with the words. */
const kubectlCompleteName = /^kubectl_complete-planwatch(\.exe)?$/i;

async function main(state: RunState, argv: readonly string[], invokedAs: string): Promise<number> {
	if (argv[0] === '__complete' || kubectlCompleteName.test(path.basename(invokedAs))) {
		const [
			{complete, formatCompletion},
			{listTargetNames, listContextNames, listPlanNames, listNamespaceNames},
			{scenarioNames, scenarios},
		] = await Promise.all([
			import('./cli/complete.js'),
			import('./cli/complete-targets.js'),
			import('./scenarios/catalog.js'),
		]);
		state.reached = exitCodes.ok;
		const words = argv[0] === '__complete' ? argv.slice(1) : argv;
		await state.write(process.stdout, formatCompletion(await complete(words, {
			scenarioNames,
			scenarioTitles: Object.fromEntries(scenarios.map(s => [s.name, s.title])),
			listTargets: async scope => listTargetNames(scope),
			listContexts: scope => listContextNames(scope),
			listPlans: async (scope, instances) => listPlanNames(scope, instances),
			listNamespaces: async scope => listNamespaceNames(scope),
		})));
		return exitCodes.ok;
	}

	const parsed = parseArgs(argv, {stdoutIsTTY: Boolean(process.stdout.isTTY), env: process.env});
	if (parsed.kind === 'run') {
		verbosity = parsed.options.verbosity;
	}

	switch (parsed.kind) {
		case 'help': {
			state.reached = exitCodes.ok;
			await state.write(process.stdout, parsed.text);
			return exitCodes.ok;
		}

		case 'version': {
			// node:sea exists from Node 20.12/21.7 on; only a single executable has its isSea() true.
			const standalone = await import('node:sea').then(sea => sea.isSea(), () => false);
			state.reached = exitCodes.ok;
			const info = buildInfo({node: process.version, platform: process.platform, arch: process.arch, standalone});
			await state.write(process.stdout, formatVersion(info, parsed.output));
			return exitCodes.ok;
		}

		case 'completion': {
			state.reached = exitCodes.ok;
			const {completionScripts} = await import('./cli/completion-scripts.js');
			await state.write(process.stdout, completionScripts[parsed.shell]);
			return exitCodes.ok;
		}

		case 'error': {
			await state.write(process.stderr, `planwatch: ${parsed.message} (see planwatch --help)\n`);
			return exitCodes.usage;
		}

		case 'run': {
			return run(state, parsed.options);
		}
	}
}

async function run(state: RunState, options: Options): Promise<number> {
	switch (options.mode) {
		case 'file': {
			// On demand, like every source: --help and usage errors should not pay for loading client-node.
			const {loadFileSource} = await import('./sources/file-source.js');
			return show(state, options, async () => loadFileSource(options.files), {stdinConsumed: options.files.includes('-')});
		}

		case 'cluster': {
			// One context, or several in one list (source/cli/cluster-run.ts).
			const [{openClusterRun}, {openRequestLog}] = await Promise.all([
				import('./cli/cluster-run.js'),
				import('./cli/request-log.js'),
			]);
			// -v=6: live on stderr, or kept until the TUI has left stderr's terminal (source/cli/request-log.ts).
			const requests = options.verbosity >= requestLogVerbosity
				? openRequestLog({live: options.output !== 'tui' || !process.stderr.isTTY, write: text => process.stderr.write(text)})
				: undefined;
			const cluster = openClusterRun(options, requests?.log);
			try {
				return await show(state, options, cluster.createSource, {targets: cluster.targets});
			} finally {
				await state.write(process.stderr, requests?.flush() ?? '');
			}
		}

		case 'demo': {
			const [{findScenario, scenarioNames, defaultScenarioName}, {createDemoSource, demoNamespace}] = await Promise.all([
				import('./scenarios/catalog.js'),
				import('./sources/demo-source.js'),
			]);
			const demo = options.demo ?? {speed: 1, loop: false};
			const name = demo.scenario ?? defaultScenarioName;
			const scenario = findScenario(name);
			if (!scenario) {
				throw new InputError(`unknown scenario "${shownInput(name)}` +
					`"${didYouMean(name, scenarioNames) || `: choose one of ${scenarioNames.join(', ')}`}`);
			}

			const {scenarioTargets} = await import('./scenarios/scenario.js');
			// The demo's objects appear as it plays: --wait waits for every object the scenario creates.
			const targets = options.wait ? scenarioTargets(scenario, demoNamespace).map(t => objectKey(t)) : [];
			return show(
				state,
				options,
				clock => createDemoSource({scenarios: [scenario], clock, speed: demo.speed, loop: demo.loop, namespace: demoNamespace}),
				{targets},
			);
		}

		case 'replay': {
			return replay(state, options);
		}
	}
}

/** `planwatch replay FILE`: the recording's source on a clock that reads recorded time. */
async function replay(state: RunState, options: Options): Promise<number> {
	const [{loadRecording, createReplaySource}, {ReplayClock}, {resolveFrom}, {parseDuration}] = await Promise.all([
		import('./sources/replay-source.js'),
		import('./recording/replay-clock.js'),
		import('./recording/recording.js'),
		import('./model/parse-duration.js'),
	]);
	const {file, speed, from} = options.replay!;
	const recording = await loadRecording(file);
	const fromMs = from === undefined ? undefined : resolveFrom(from, recording.startMs, parseDuration, options.utc ? 'UTC' : undefined);
	if (fromMs === undefined && from !== undefined) {
		throw new InputError(`invalid --from "${from}": use a duration after the start (2m30s) or a time (11:02:30, 2026-11-30T11:02:30Z)`);
	}

	const wallClock = new SystemClock();
	const clock = new ReplayClock(wallClock, recording.startMs, speed, true);
	const source = createReplaySource({recording, clock, fromMs});
	const targets = recording.header.waitFor;
	// The recording's end settles a replay that is not waiting (or whose recorded session ended before its wait
	// did: it was interrupted). A verdict reached together with the last entry wins: decided after pending work.
	let endedBeforeWait = false;
	const ended = source.controls.ended
		.then(async () => new Promise(resolve => {
			setImmediate(resolve);
		}))
		.then(() => {
			endedBeforeWait = options.wait;
			return {
				exitCode: options.wait ? exitCodes.interrupted : -1,
				message: options.wait ? 'the recording ends before the wait finished' : '',
			};
		});
	const play = (): void => {
		clock.setPaused(false);
	};

	// A demo's recording files its runs where the demo did (`demo/`): the same run then has the same key and id, and
	// is not filed a second time.
	const historyRealm = recording.header.source === 'demo' ? demoRealm : '';
	const code = await show(
		state,
		options,
		() => source,
		{targets, clock, wallClock, replay: source.controls, ended, onReady: play, historyRealm},
	);
	if (code === exitCodes.interrupted && endedBeforeWait) {
		// Not a signal: the recorded session stopped before its outcome, and the replay cannot make one up.
		await state.write(process.stderr, `planwatch: ${endedBeforeWaitReason(recording)}\n`);
	}

	return code;
}

/** Why `replay --wait` ends with 130 although nobody interrupted it. */
function endedBeforeWaitReason(recording: Awaited<ReturnType<typeof import('./sources/replay-source.js').loadRecording>>): string {
	const at = new Date(recording.entries.at(-1)?.at ?? recording.startMs).toISOString();
	const why =
		recording.header.waitFor.length === 0
			? 'it was recorded without --wait, so no outcome was recorded'
			: recording.entries.at(-1)?.event.type === 'end'
				? 'the recorded session stopped before its targets finished (it timed out or was interrupted)'
				: 'the recording is cut (no end line: the recording process was killed)';
	return `the recording ends at ${at} before the wait finished: ${why}`;
}

/** Codes 2–4 end with their reason on stderr (a failed object is already in the output; 130 needs no words). */
async function reportEnd(state: RunState, result: {readonly exitCode: number; readonly message: string}): Promise<number> {
	state.reached = result.exitCode;
	if (result.exitCode >= exitCodes.usage && result.exitCode < exitCodes.interrupted && result.message) {
		await state.write(process.stderr, `planwatch: ${describeError(new Error(result.message)).message}\n`);
	}

	return result.exitCode;
}

type ShowExtras = {
	/** Object keys (`Kind/namespace/name`) to open and wait for; empty = everything the source lists. */
	readonly targets?: readonly string[];
	/** `-f -` read stdin: TUI keys come from the terminal itself. */
	readonly stdinConsumed?: boolean;
	/** The app clock (replay: recorded time); default the system clock. */
	readonly clock?: Clock;
	/** Wall time when the app clock is not (replay): frames are paced on it. */
	readonly wallClock?: Clock;
	/** Replay: what `[`, `]` and space drive. */
	readonly replay?: ReplayControls;
	/** Replay: the output is ready to show every change: start playing. */
	readonly onReady?: () => void;
	/** Replay: the recording has played to its end (plain/json end there; exit code -1 = as drawn once). */
	readonly ended?: Promise<{readonly exitCode: number; readonly message: string}>;
	/** Replay: where the recorded session filed its runs in the ETA history (default: by mode). */
	readonly historyRealm?: string;
};

/** `instance/NAME` as typed, for a recording's header. */
function targetText(target: Options['targets'][number]): string {
	return `${target.kind === 'Instance' ? 'instance' : 'actionset'}/${target.name}`;
}

/** One clock, one store fed by the source; plain, json and the TUI all draw from it. */
async function show(
	state: RunState,
	options: Options,
	createSource: (clock: Clock) => ObjectSource | Promise<ObjectSource>,
	extras: ShowExtras = {},
): Promise<number> {
	const targets = extras.targets ?? [];
	const clock = extras.clock ?? new SystemClock();
	const source = await createSource(clock);
	// A static snapshot is drawn at the moment it records: the store stamps first sights there, views freeze there.
	const recordedAt = source.frozen?.recordedAt;
	const asOf: AsOf | undefined = source.frozen && {at: recordedAt ?? clock.now(), recorded: recordedAt !== undefined};
	// While an event is recorded and applied, the store reads the very time the recording gets: a replay then
	// stamps every transition exactly as live did.
	let pinned: number | undefined;
	const storeClock: Clock =
		options.record === undefined && asOf === undefined
			? clock
			: {now: () => pinned ?? asOf?.at ?? clock.now(), onTick: l => clock.onTick(l), after: (ms, f) => clock.after(ms, f)};
	const session = openSession(source, {clock, wallClock: extras.wallClock ?? clock, storeClock});
	const {store} = session;
	const history = options.history
		? await startRunHistory(store, extras.historyRealm ?? (options.mode === 'demo' ? demoRealm : ''))
		: undefined;
	const expectations = history?.session.expectations;
	const apply = history ? history.feed(store, history.session) : store.apply;
	let recorder: Recorder | undefined;
	if (options.record !== undefined) {
		const [{openRecorder}, {version}] = await Promise.all([import('./sources/recorder.js'), import('./cli/version.js')]);
		recorder = await openRecorder(options.record, {
			version,
			source: options.mode === 'demo' ? 'demo' : 'cluster',
			context: source.label,
			namespace: source.scope,
			targets: options.targets.map(t => targetText(t)),
			waitFor: targets,
			start: new Date(clock.now()).toISOString(),
		});
	}

	const rec = recorder;
	session.start(
		rec
			? event => {
				pinned = clock.now();
				try {
					rec.record(pinned, event);
					apply(event);
				} finally {
					pinned = undefined;
				}
			}
			: apply,
	);
	try {
		return await drive(state, options, {session, targets, extras, expectations, ...(asOf ? {asOf} : {})});
	} finally {
		await source.stop();
		history?.session.dispose();
		await recorder?.close(clock.now());
		const failed = recorder?.error();
		if (failed) {
			await state.write(process.stderr, `planwatch: recording stopped: ${failed}\n`);
		}

		const refused = history?.refused();
		if (refused) {
			await state.write(process.stderr, `planwatch: ${refused}\n`);
		}
	}
}

type Driven = {
	/** A static snapshot: the moment every view draws it at. */
	readonly asOf?: AsOf;
	readonly session: Session;
	readonly targets: readonly string[];
	readonly extras: ShowExtras;
	readonly expectations: Awaited<ReturnType<typeof startRunHistory>>['session']['expectations'] | undefined;
};

/** The chosen output over a started source. */
async function drive(state: RunState, options: Options, {session, targets, extras, expectations, asOf}: Driven): Promise<number> {
	const {store, clock, source} = session;
	// --once: the failed and running nodes' pods and logs are read before the one picture (bounded), so it says why.
	const causesRead = options.once ? await readCausesOnce(session, options) : undefined;
	if (options.output === 'tui') {
		// Loaded on demand: plain and json output never start React or Ink. Node's fetch stays unloaded: see the module.
		const {runTui} = await withoutFetchingDataUrls(async () => import('./cli/run-tui.js'));
		// Files are listed synchronously by start(); a cluster shows "connecting" until it has listed.
		const {objects} = store.getSnapshot();
		return await reportEnd(
			state,
			await runTui({
				store,
				clock,
				frameClock: session.wallClock,
				header: {context: source.label, scope: source.scope},
				options,
				// One object from files: open its tree rather than a list of one.
				targets: targets.length === 0 && options.mode === 'file' && objects.length === 1 ? [objectKey(objects[0]!)] : targets,
				stdin: extras.stdinConsumed && !options.once ? openTerminalInput() : undefined,
				interrupted: interrupt.claim(),
				signals: createTerminalSignals({
					write: text => process.stdout.write(text),
					isTTY: Boolean(process.stdout.isTTY),
					env: process.env,
				}),
				dir: process.cwd(),
				expectations,
				...(asOf ? {asOf} : {}),
				onResult(result) {
					state.reached = result.exitCode;
				},
				replay: extras.replay,
				onReady: extras.onReady,
			}),
		);
	}

	if (!options.once) {
		const {runStream} = await import('./cli/run-stream.js');
		const output = options.output;
		return await reportEnd(
			state,
			await runStream({
				store,
				clock,
				options: {...options, output},
				targets,
				write: async text => state.write(process.stdout, text),
				interrupted: interrupt.claim(),
				timeZone: options.utc ? 'UTC' : undefined,
				expectations,
				onResult(result) {
					state.reached = result.exitCode;
				},
				ended: extras.ended,
				onReady: extras.onReady,
			}),
		);
	}

	const snapshot = await whenSynced(store);
	if (snapshot.fatal) {
		return await reportEnd(state, snapshot.fatal);
	}

	// JSON carries them as its "missing" and "limited" keys; the other pictures say on stderr what they are drawn without.
	if (options.output !== 'json') {
		for (const m of [...(snapshot.missing ?? []), ...(snapshot.limited ?? [])]) {
			await state.write(process.stderr, `planwatch: ${m.message}\n`);
		}

		// The pods' one note (pods/log refused, not read in time), unless it is a `missing` line above already.
		const note = causesRead === 'none' ? undefined : store.workloads.note;
		if (note && !note.missing) {
			await state.write(process.stderr, `planwatch: ${note.text}\n`);
		}
	}

	const drawn = drawOnce(snapshot, {
		output: options.output,
		ascii: options.ascii,
		color: options.color,
		now: asOf?.at ?? clock.now(),
		timeZone: options.utc ? 'UTC' : undefined,
		expectations,
		...(asOf ? {asOf} : {}),
	});
	const {chunks} = drawn;
	// Several contexts: one that gave up or could not be reached yet is in the code (worst wins) and on stderr.
	const {contextFailures} = await import('./state/context-results.js');
	const failures = contextFailures(snapshot.contexts, {unreachable: true});
	const exitCode = worstExitCode([drawn.exitCode, ...failures.map(f => f.exitCode)]);
	state.reached = exitCode;
	for (const f of failures) {
		await state.write(process.stderr, `planwatch: ${f.message}\n`);
	}

	// Gathered into writes of about 1 MB: few system calls, and never the whole picture of a big file at once.
	let pending = '';
	for (const chunk of chunks) {
		pending += chunk;
		if (pending.length >= 1_000_000) {
			await state.write(process.stdout, pending);
			pending = '';
		}
	}

	await state.write(process.stdout, pending);
	return exitCode;
}

/** --once: wait (at most the request timeout) for the pods and logs of the nodes the picture explains. */
async function readCausesOnce(session: Session, options: Options): Promise<'read' | 'timed-out' | 'none' | undefined> {
	const synced = await whenSynced(session.store);
	if (synced.fatal || !session.source.followed) {
		return undefined;
	}

	const [{readCauses}, {onceFirstListWithinMs}] = await Promise.all([
		import('./cli/read-causes.js'),
		import('./sources/cluster-source.js'),
	]);
	// 0 (no timeout) still gets --once's bound: one picture must end.
	const limitMs = options.requestTimeoutMs ? options.requestTimeoutMs : onceFirstListWithinMs;
	return await readCauses({store: session.store, source: session.source, clock: session.clock, limitMs});
}

/** The demo's runs are filed apart: its operator versions have real names, its durations are scripted. */
const demoRealm = 'demo/';

/** The ETA history: past runs in memory, and every run the store sees finish filed (source/history/). */
async function startRunHistory(store: Store, realm: string) {
	const [{historyPath, openHistoryFile, HistoryRefused}, {startHistory, feedWithHistory}] = await Promise.all([
		import('./history/history-file.js'),
		import('./history/history-session.js'),
	]);
	// A history file planwatch will not use (a symbolic link, a FIFO) is said once, when the run ends; other
	// failures only cost the ETA (README: an unreadable history never stops a watch).
	let refused: string | undefined;
	const file = openHistoryFile(historyPath(process.env), error => {
		if (error instanceof HistoryRefused) {
			refused ??= sanitizeLine(error.message, 400);
		}
	});
	return {session: startHistory(store, file, realm), feed: feedWithHistory, refused: () => refused};
}

/** -v/--v of this run, once parsed (an error before that has none). */
let verbosity = 0;

async function fail(state: RunState, error: unknown): Promise<never> {
	const {message, exitCode} = describeError(error);
	await state.write(process.stderr, `planwatch: ${message}\n`);
	// PLANWATCH_DEBUG=1 is -v=9 for this (it also covers errors before the flags are read).
	if ((verbosity >= stackTraceVerbosity || process.env['PLANWATCH_DEBUG'] === '1') && error instanceof Error && error.stack) {
		await state.write(process.stderr, `${error.stack}\n`);
	}

	process.exit(exitCode);
}

const state = new RunState();
process.on('uncaughtException', error => {
	void fail(state, error);
});
process.on('unhandledRejection', error => {
	void fail(state, error);
});
// `planwatch … | head` (EPIPE) or a full disk: see RunState.outputFailed.
process.stdout.on('error', error => {
	state.outputFailed(error);
});
// Nowhere left to report a failing stderr (it is full too, or closed): never crash on it.
process.stderr.on('error', () => {});

try {
	// Started with stdout closed (`>&-`): nothing the run shows would reach anyone, yet it would exit 0.
	if (stdoutWasClosed()) {
		state.reached = exitCodes.usage;
		await state.write(
			process.stderr,
			'planwatch: stdout is closed (started with >&-): nothing could be shown; give it a file or /dev/null\n',
		);
		process.exit(exitCodes.usage);
	}

	const code = await main(state, process.argv.slice(2), process.argv[1] ?? '');
	process.exit(code);
} catch (error) {
	await fail(state, error);
}
