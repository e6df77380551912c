/**
 * planwatch's entry: argv → Options → a source of objects → one output mode → exit code. Wiring only; parsing
 * is source/cli/parse-args.ts, drawing is source/render/ and source/ui/. Every failure ends here as one line
 * on stderr and an exit code (0 nothing failed, 1 failed, 2 usage/input, 3 timed out, 4 cluster, 130 interrupted).
 */
import process from 'node:process';
import {describeError, exitCodes} from './cli/exit-codes.js';
import {drawOnce} from './cli/draw-once.js';
import {parseArgs, type Options} from './cli/parse-args.js';
import {openTerminalInput} from './cli/tty-input.js';
import {version} from './cli/version.js';
import {whenSynced} from './cli/when-synced.js';
import type {ObjectSource} from './kube/object-source.js';
import {objectKey} from './model/plan-tree.js';
import {SystemClock} from './state/clock.js';
import {Store} from './state/store.js';

/** Write and wait until the stream took it, so exiting never cuts output short (pipes are async on macOS). */
async function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
	if (text === '') {
		return;
	}

	await new Promise<void>(resolve => {
		stream.write(text, () => {
			resolve();
		});
	});
}

/** Signals end a run with 130; resolves on the first one. */
const interrupted = new Promise<void>(resolve => {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			resolve();
		});
	}
});

async function main(argv: readonly string[]): Promise<number> {
	const parsed = parseArgs(argv, {stdoutIsTTY: Boolean(process.stdout.isTTY), env: process.env});
	switch (parsed.kind) {
		case 'help': {
			await write(process.stdout, parsed.text);
			return exitCodes.ok;
		}

		case 'version': {
			await write(process.stdout, `${version}\n`);
			return exitCodes.ok;
		}

		case 'error': {
			await write(process.stderr, `planwatch: ${parsed.message} (see planwatch --help)\n`);
			return exitCodes.usage;
		}

		case 'run': {
			return run(parsed.options);
		}
	}
}

async function run(options: Options): Promise<number> {
	switch (options.mode) {
		case 'file': {
			// On demand, like every source: --help and usage errors should not pay for loading client-node.
			const {loadFileSource} = await import('./sources/file-source.js');
			const source = await loadFileSource(options.files);
			return show(source, options, options.files.includes('-'));
		}

		case 'cluster':
		case 'demo': {
			// Wired by the cluster and demo work: build their ObjectSource and call show().
			throw Object.assign(new Error(`${options.mode === 'demo' ? 'demo' : 'watching a cluster'} is not available in this build yet; use -f FILE`), {
				exitCode: exitCodes.usage,
			});
		}
	}
}

/** One store fed by the source; plain, json and the TUI all draw from it. */
async function show(source: ObjectSource, options: Options, stdinConsumed: boolean): Promise<number> {
	const clock = new SystemClock();
	const store = new Store(clock);
	source.start(store.apply);
	try {
		if (options.output === 'tui') {
			// Loaded on demand: plain and json output never start React or Ink.
			const {runTui} = await import('./cli/run-tui.js');
			const {objects} = await whenSynced(store);
			const result = await runTui({
				store,
				clock,
				header: {context: source.label, scope: source.scope},
				options,
				// One object from files: open its tree rather than a list of one.
				targets: options.mode === 'file' && objects.length === 1 ? [objectKey(objects[0]!)] : [],
				stdin: stdinConsumed && !options.once ? openTerminalInput() : undefined,
				interrupted,
			});
			if (result.exitCode >= exitCodes.usage && result.message) {
				await write(process.stderr, `planwatch: ${result.message}\n`);
			}

			return result.exitCode;
		}

		// Live plain/json (NDJSON) output belongs to cluster/demo mode; files are always drawn once.
		const snapshot = await whenSynced(store);
		if (snapshot.fatal) {
			await write(process.stderr, `planwatch: ${snapshot.fatal.message}\n`);
			return snapshot.fatal.exitCode;
		}

		const {text, exitCode} = drawOnce(snapshot, {output: options.output, ascii: options.ascii, color: options.color, now: clock.now()});
		await write(process.stdout, text);
		return exitCode;
	} finally {
		await source.stop();
	}
}

async function fail(error: unknown): Promise<never> {
	const {message, exitCode} = describeError(error);
	await write(process.stderr, `planwatch: ${message}\n`);
	if (process.env['PLANWATCH_DEBUG'] === '1' && error instanceof Error && error.stack) {
		await write(process.stderr, `${error.stack}\n`);
	}

	process.exit(exitCode);
}

process.on('uncaughtException', error => {
	void fail(error);
});
process.on('unhandledRejection', error => {
	void fail(error);
});
// `planwatch … | head`: the reader left; stop quietly instead of dying on EPIPE.
process.stdout.on('error', error => {
	if ((error as NodeJS.ErrnoException).code === 'EPIPE') {
		process.exit(process.exitCode ?? 0);
	}
});

try {
	const code = await main(process.argv.slice(2));
	process.exit(code);
} catch (error) {
	await fail(error);
}
