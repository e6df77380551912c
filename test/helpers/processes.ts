/**
 * Child processes for the e2e harness (test/e2e/harness/cluster.ts and kudo.ts start etcd, kube-apiserver, the
 * KUDO manager, openssl, kubectl and kubectl-kudo): one way to run a command to its end, to start a server with
 * its output in a log file, to poll until something holds, and to show the end of a log when it does not.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {closeSync, openSync, readFileSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {setTimeout as sleep} from 'node:timers/promises';

export type ExecResult = {stdout: string; stderr: string; code: number};

export type RunOptions = {
	/** Written to the command's stdin, which is then closed (closed at once without it). */
	input?: string;
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	/** Also gets the command's stderr as it comes (a build script's progress). */
	stderrTo?: NodeJS.WritableStream;
};

/** Run a command to its end. Never throws on a non-zero exit: `code` says it (128 when a signal ended it). */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<ExecResult & {endedAt: number}> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
			stderr += chunk;
			options.stderrTo?.write(chunk);
		});
		child.on('error', reject);
		child.on('close', (code, signal) => {
			resolve({stdout, stderr, code: code ?? (signal ? 128 : 1), endedAt: Date.now()});
		});
		// A command that exits without reading stdin (openssl, kubectl get) makes this write fail with EPIPE:
		// harmless, but unhandled it is an uncaught exception that fails the whole vitest run.
		child.stdin.on('error', () => {});
		child.stdin.end(options.input ?? '');
	});
}

export type Managed = {child: ChildProcess; exited: Promise<void>};

export type SpawnLoggedOptions = {
	/** Gets stdout and stderr (appended). */
	log: string;
	/** Gets the pid: the cluster's watchdog kills every <dir>/*.pid when the test process dies without its exit handlers. */
	pidFile: string;
	env?: NodeJS.ProcessEnv;
	/** Holds the child while it runs (the exit handlers kill what is in it). */
	children: Set<ChildProcess>;
};

/** Start a server in the background, its output in a log file. `exited` resolves when it has exited (or never started). */
export async function spawnLogged(binary: string, args: readonly string[], options: SpawnLoggedOptions): Promise<Managed> {
	const fd = openSync(options.log, 'a');
	const child = spawn(binary, args, {stdio: ['ignore', fd, fd], ...(options.env ? {env: options.env} : {})});
	closeSync(fd);
	options.children.add(child);
	const exited = new Promise<void>(resolve => {
		child.once('exit', () => {
			options.children.delete(child);
			resolve();
		});
		child.once('error', () => {
			options.children.delete(child);
			resolve();
		});
	});
	if (child.pid !== undefined) {
		await writeFile(options.pidFile, String(child.pid));
	}
	return {child, exited};
}

/** The last lines of a log file ('' when there is none), for a failure message. */
export function tail(file: string, lines = 40): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/**
 * Poll `probe` until it gives a value (an error counts as not yet). Past `timeoutMs`: an error naming `what`, the
 * probe's last error and `detail()` (the end of a log).
 */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, detail?: () => string): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined) {
				return value;
			}
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > deadline) {
			const why = lastError instanceof Error ? `: ${lastError.message}` : '';
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}${detail ? `\n${detail()}` : ''}`);
		}
		await sleep(250);
	}
}
