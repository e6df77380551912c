/**
 * The built CLI (dist/planwatch.js, made by `npm run test:e2e` before the suite) run the way a user's shell runs
 * it, with pipes: `process.execPath dist/planwatch.js …` (the pinned Node 26 under npm). Output is collected as it comes so a
 * test can wait for a line while the process still runs; every wait has a deadline whose error shows what was seen.
 * Every process started here is killed (by its own pid) by `killAllClis()`, which the suites call in afterEach.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {existsSync} from 'node:fs';
import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** The bin under test; PLANWATCH_E2E_CLI points the suite at another build of it. */
export const cliPath = process.env['PLANWATCH_E2E_CLI'] ?? path.join(repoRoot, 'dist', 'planwatch.js');

/** A HOME with no ~/.kube/config, so nothing of the machine leaks into a run. */
const emptyHome = mkdtempSync(path.join(tmpdir(), 'planwatch-e2e-home-'));

/** The environment a run gets: the caller's PATH and little else; no kubeconfig, colour or debug settings. */
export function cliEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
	const env: Record<string, string> = {
		PATH: process.env['PATH'] ?? '/usr/bin:/bin',
		HOME: emptyHome,
		TZ: 'UTC',
		LANG: 'C.UTF-8',
	};
	for (const [name, value] of Object.entries(extra)) {
		if (value === undefined) {
			delete env[name];
		} else {
			env[name] = value;
		}
	}

	return env;
}

export function assertBuilt(): void {
	if (!existsSync(cliPath)) {
		throw new Error(`${cliPath} is missing: run the suite with \`npm run test:e2e\` (it builds the CLI first)`);
	}
}

export type Exit = {readonly code: number | null; readonly signal: NodeJS.Signals | null};

export type CliProcess = {
	readonly args: readonly string[];
	readonly pid: number | undefined;
	stdout(): string;
	stderr(): string;
	/** Complete stdout lines so far. */
	lines(): string[];
	/** Resolves when the process has exited and its pipes are drained. */
	readonly exited: Promise<Exit>;
	/** Exit, or undefined while running. */
	exit(): Exit | undefined;
	/** When the process exited (Date.now()), once it has. */
	exitedAt(): number | undefined;
	/** Wait until `condition(stdout)` holds (or throw with what was seen). */
	waitForStdout(condition: (stdout: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
	/** Wait for the exit, at most `timeoutMs`; throws with the output seen so far. */
	waitForExit(timeoutMs?: number): Promise<Exit>;
	kill(signal?: NodeJS.Signals): void;
	/** stdout + stderr + exit, for failure messages. */
	describe(): string;
};

const running = new Set<ChildProcessWithoutNullStreams>();

export type CliOptions = {
	env?: Record<string, string | undefined>;
	input?: string;
	/** Run this instead of `node dist/planwatch.js` (the standalone executable, kubectl with the plugin). */
	command?: readonly string[];
};

/** Start the CLI with pipes; stdin stays open (and empty) unless `input` is given. */
export function startCli(args: readonly string[], options: CliOptions = {}): CliProcess {
	if (!options.command) {
		assertBuilt();
	}

	const [command, ...prefix] = options.command ?? [process.execPath, cliPath];
	const child = spawn(command!, [...prefix, ...args], {cwd: repoRoot, env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe']});
	running.add(child);
	let stdout = '';
	let stderr = '';
	let exit: Exit | undefined;
	let exitedAt: number | undefined;
	const listeners = new Set<() => void>();
	const changed = () => {
		for (const listener of [...listeners]) {
			listener();
		}
	};

	child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
		stdout += chunk;
		changed();
	});
	child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
		stderr += chunk;
		changed();
	});
	child.stdin.on('error', () => {
		// The CLI may exit before reading stdin.
	});
	if (options.input !== undefined) {
		child.stdin.end(options.input);
	}

	const exited = new Promise<Exit>(resolve => {
		child.on('close', (code, signal) => {
			exitedAt ??= Date.now();
			exit = {code, signal};
			running.delete(child);
			changed();
			resolve(exit);
		});
		child.on('exit', () => {
			exitedAt = Date.now();
		});
		child.on('error', error => {
			stderr += `\n[spawn error] ${error.message}`;
			exit = {code: null, signal: null};
			running.delete(child);
			changed();
			resolve(exit);
		});
	});

	const describe = () =>
		`$ planwatch ${args.join(' ')}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}\n--- exit: ${exit ? `code ${String(exit.code)} signal ${String(exit.signal)}` : 'still running'}`;

	const waitFor = async (condition: () => boolean, what: string, timeoutMs: number) => {
		if (condition()) {
			return;
		}

		await new Promise<void>((resolve, reject) => {
			const check = () => {
				if (condition()) {
					cleanup();
					resolve();
				}
			};

			const timer = setTimeout(() => {
				cleanup();
				reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${describe()}`));
			}, timeoutMs);
			const cleanup = () => {
				clearTimeout(timer);
				listeners.delete(check);
			};

			listeners.add(check);
		});
	};

	return {
		args,
		pid: child.pid,
		stdout: () => stdout,
		stderr: () => stderr,
		lines: () => stdout.split('\n').slice(0, -1),
		exited,
		exit: () => exit,
		exitedAt: () => exitedAt,
		waitForStdout: async (condition, what, timeoutMs = 30_000) => {
			await waitFor(() => condition(stdout), what, timeoutMs);
		},
		waitForExit: async (timeoutMs = 60_000) => {
			await waitFor(() => exit !== undefined, 'the CLI to exit', timeoutMs);
			return exit!;
		},
		kill: (signal = 'SIGTERM') => {
			if (exit === undefined) {
				child.kill(signal);
			}
		},
		describe,
	};
}

/** Run to the end (killed after `timeoutMs`, which then fails). */
export async function runCli(args: readonly string[], options: CliOptions & {timeoutMs?: number} = {}): Promise<{stdout: string; stderr: string; code: number | null; describe: string}> {
	const cli = startCli(args, {...options, input: options.input ?? ''});
	try {
		await cli.waitForExit(options.timeoutMs ?? 60_000);
	} finally {
		cli.kill('SIGKILL');
	}

	return {stdout: cli.stdout(), stderr: cli.stderr(), code: cli.exit()?.code ?? null, describe: cli.describe()};
}

/** Kill every CLI process this file started that still runs (each by its own pid). */
export function killAllClis(): void {
	for (const child of running) {
		child.kill('SIGKILL');
	}

	running.clear();
}

/** Parsed NDJSON lines of `-o json` (live mode); a line that is not JSON fails with the whole output. */
export function ndjson(stdout: string): Array<Record<string, unknown>> {
	return stdout
		.split('\n')
		.filter(line => line.trim() !== '')
		.map(line => {
			try {
				return JSON.parse(line) as Record<string, unknown>;
			} catch {
				throw new Error(`not an NDJSON line: ${JSON.stringify(line)}\n--- stdout ---\n${stdout}`);
			}
		});
}

/** ESC (or the 8-bit CSI) anywhere: what plain and json output must never contain. */
export function hasControlSequence(text: string): boolean {
	return /[\u001B\u009B]/.test(text);
}

export type JsonRun = {
	/** The opening snapshot. */
	readonly first?: {objects: import('../../../source/render/json.js').JsonObject[]};
	/** Objects of the last snapshot (the final picture). */
	readonly objects: import('../../../source/render/json.js').JsonObject[];
	readonly transitions: Array<Record<string, unknown>>;
	readonly result?: Record<string, unknown>;
};

/** The NDJSON of a live `-o json` run: opening snapshot, transitions, final snapshot, result. */
export function cliFinal(stdout: string): JsonRun {
	const lines = ndjson(stdout);
	const snapshots = lines.filter(line => line['type'] === 'snapshot') as unknown as Array<{objects: import('../../../source/render/json.js').JsonObject[]}>;
	return {
		first: snapshots[0],
		objects: snapshots.at(-1)?.objects ?? [],
		transitions: lines.filter(line => line['type'] === 'transition'),
		result: lines.findLast(line => line['type'] === 'result'),
	};
}
